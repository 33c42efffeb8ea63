/// One who watches a REPL session from outside it, such as the live inspector: told, after each
/// line (or `--watch` reload) that changed something, what the routes did and where the tree
/// stands. The session knows nothing of how it is shown.
public protocol ReplObserver: Sendable {
    /// Called on the session's actor, so it must return at once: hand the update over, never
    /// wait for a reader.
    func replDidUpdate(_ update: ReplUpdate)
}
