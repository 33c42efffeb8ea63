/// A router's state saved as a snapshot, and restored from one (docs/snapshots.md).
extension Router {
    /// The router's state as a snapshot document: the live tree with every kept stack, the
    /// switches' histories and the last routes; the host adds what only it knows (the rules'
    /// identity, the pending destination, the app's state).
    public func snapshot(rules: RulesIdentity, pending: Destination? = nil, state appState: JSONValue = .null) -> SnapshotDocument {
        let (tree, switchHistory, records) = state.withLock { ($0.tree, $0.switchHistory.all, $0.history.records) }
        return SnapshotDocument(
            rules: rules, tree: SavedNode(tree.root), switchHistory: switchHistory, pending: pending, history: records,
            state: appState)
    }

    /// Restores a prepared snapshot as one unit of work (`RestoreRun`): on the router's thread,
    /// outside any running route. Never throws; a refusal leaves the router as it was.
    public func restoreNow(_ prepared: PreparedRestore) -> RestoreOutcome {
        guard thread.isCurrent else {
            return .refused("restoreNow must be called on the router's thread")
        }
        guard prepared.tree.graph == tree.graph else {
            return .refused("the snapshot was prepared for other rules than the router's")
        }
        if state.withLock({ $0.routes.isDraining || $0.routes.running != nil }) {
            return .refused("a route is running: a restore runs between routes, never inside one")
        }
        return RestoreRun(router: self, prepared: prepared).run()
    }
}
