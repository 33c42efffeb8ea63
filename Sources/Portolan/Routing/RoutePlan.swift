/// What a route would do, decided without doing it (`Router.plan(to:)`): where the interceptors
/// (guards included) would send it, and the instructions it would execute or why it would fail.
///
/// A plan runs the decisions a route runs — interceptors, redirects, `canLeave` — and none of its
/// effects: no handler, context task or observer runs, and the tree, the history and the queue
/// stay as they were. Routing to `requested` right after gets `result`, as long as the decisions
/// answer the same (they must have no side effects: `RouteRequest.isDryRun`).
public struct RoutePlan: Sendable, Equatable {
    /// Where the route was asked to go, made absolute (a modal flow's relative destination is a
    /// path from the root).
    public let requested: Destination
    /// Each destination a guard or an interceptor sent the route to, in order; empty when none did.
    public let redirects: [Destination]
    /// The instructions the route would execute, or why it would fail: `denied` with the reason,
    /// `blocked` at the leave a `canLeave` refuses, `unreachable`, or `invalid` (a redirect loop).
    public let result: RouteResult

    public init(requested: Destination, redirects: [Destination] = [], result: RouteResult) {
        self.requested = requested
        self.redirects = redirects
        self.result = result
    }

    /// Where the route would end up: the last redirect's destination, or `requested`.
    public var settled: Destination {
        redirects.last ?? requested
    }
}
