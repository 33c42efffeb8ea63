import Portolan
import PortolanShipping

/// What changed in a REPL session since the last update.
public struct ReplUpdate: Sendable {
    /// The app as the banner names it.
    public var appName: String
    /// The live tree now; nil while no app is declared.
    public var tree: RoutingTree?
    /// The router events since the last update, in order (at most `RouteEventLog.eventLimit`).
    public var events: [RouterEvent]
    /// The routes those events tell of, in order: the one asked for, then any queued meanwhile.
    public var routes: [RouteReport]
    /// The app's rules as its declared graph shows them; nil while no app is declared.
    public var rules: AppRulesPicture?
}
