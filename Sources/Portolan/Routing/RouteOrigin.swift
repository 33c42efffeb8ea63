/// Who asked for a route: the app (its code, for its user), or the rules themselves (a Lua
/// handler, observer, flow or script queued it). A rules bundle's canary judges the rules by the
/// app's routes only: a route the rules queue says nothing of what the user met.
public enum RouteOrigin: Sendable, Equatable {
    case app
    case rules
}
