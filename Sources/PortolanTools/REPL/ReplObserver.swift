import Portolan

/// One who watches a REPL session from outside it, such as the live inspector: told, after each
/// line (or `--watch` reload) that changed something, what the routes did and where the tree
/// stands. The session knows nothing of how it is shown.
public protocol ReplObserver: Sendable {
    /// Called on the session's actor, so it must return at once: hand the update over, never
    /// wait for a reader.
    func replDidUpdate(_ update: ReplUpdate)
}

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
}
