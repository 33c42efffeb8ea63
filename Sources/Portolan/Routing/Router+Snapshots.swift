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

    /// This router's state carried to other rules, for a reload: its snapshot (every kept stack,
    /// the switches' histories, the routes) prepared under `graph` as a restore prepares one, by
    /// the migrations declared after `rules.version` up to `version`, then the conservative rule
    /// and the new path limits, with every change reported. A reload refuses nothing: from newer
    /// rules, or across a migration that declares older states incompatible, the state is carried
    /// by the conservative rule alone. Nothing runs.
    public func carried(
        to graph: NavigationGraph, version: Int, migrations: [Int: SnapshotMigration], from rules: RulesIdentity
    ) -> PreparedRestore {
        var document = snapshot(rules: rules)
        do {
            return try PreparedRestore(document, graph: graph, version: version, migrations: migrations)
        } catch {
            // What a restore refuses (newer rules, an incompatible migration): no migration applies.
            document.rules = RulesIdentity(version: version, hash: rules.hash)
            return PreparedRestore(carrying: document, graph: graph, version: version, hash: "", migrations: migrations)
        }
    }

    /// A router for the rules a reload brought: the tree `prepared` carried, with its kept stacks,
    /// and the switches' histories and routes carried with it.
    public convenience init(
        carrying prepared: PreparedRestore, configuration: RouterConfiguration, thread: SerialThread? = nil, wakeup: Wakeup? = nil
    ) {
        self.init(tree: prepared.tree, configuration: configuration, thread: thread, wakeup: wakeup)
        state.withLock { state in
            state.switchHistory = SwitchHistory(restoring: prepared.switchHistory)
            state.history.replace(with: prepared.routes)
        }
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
