/// A router's state saved as a snapshot, and restored from one (docs/snapshots.md).
extension Router {
    /// The router's state as a snapshot document: the live tree with every kept stack, the
    /// switches' histories and the last routes; the host adds what only it knows (the rules'
    /// identity, the pending destination, the app's state and the keys its rules name).
    public func snapshot(
        rules: RulesIdentity, pending: Destination? = nil, state appState: JSONValue = .null, stateKeys: [String] = []
    ) -> SnapshotDocument {
        let (tree, switchHistory, records) = state.withLock { ($0.tree, $0.switchHistory.all, $0.history.records) }
        return SnapshotDocument(
            rules: rules, tree: SavedNode(tree.root), switchHistory: switchHistory, pending: pending, history: records,
            state: appState, stateKeys: stateKeys)
    }

    /// This router's state carried to other rules, for a reload: its snapshot (every kept stack,
    /// the switches' histories, the routes) prepared under `graph` as a restore prepares one, by
    /// the migrations declared after `rules.version` up to `version`, then the conservative rule
    /// and the new path limits, with every change reported. It refuses nothing: from newer rules,
    /// or across a migration that declares older states incompatible, the state is carried by the
    /// conservative rule alone, and `restoreRefusal` says what a restore would have refused (a
    /// swap's acceptance refuses it). `pending`, the host's pending destination, is carried as a
    /// restore carries a saved one: renamed by the migrations, or forgotten (and reported) when it
    /// names a node the rules no longer have. Nothing runs.
    public func carried(
        to graph: NavigationGraph, version: Int, migrations: [Int: SnapshotMigration], from rules: RulesIdentity,
        pending: Destination? = nil
    ) -> PreparedRestore {
        var document = snapshot(rules: rules, pending: pending)
        do {
            return try PreparedRestore(document, graph: graph, version: version, migrations: migrations)
        } catch {
            // What a restore refuses (newer rules, an incompatible migration): no migration applies.
            document.rules = RulesIdentity(version: version, hash: rules.hash)
            var carried = PreparedRestore(carrying: document, graph: graph, version: version, hash: "", migrations: migrations)
            carried.restoreRefusal = error.reason
            return carried
        }
    }

    /// The screens a rules change took away (`leaveNow(_:)`), and the tree before they left,
    /// so that a rules change that fails afterwards can bring them back.
    public struct Departure: Sendable {
        /// The kept stacks' screens that left (`CarryDifference.keptLeaving`), then the active
        /// path's: each screen's `leave`, bottom-up.
        public var left: [Instruction] { keptLeft + activeLeft }
        public let keptLeft: [Instruction]
        public let activeLeft: [Instruction]
        let start: RoutingTree
    }

    /// Leaves what carrying the live tree to other rules takes away (`difference`, worked out from
    /// this router's tree), through the one
    /// executor: each screen that goes through its `leave` handler, bottom-up, by this router's
    /// rules (the ones that entered it, whose handlers are still bound); the kept stacks' first
    /// (their handlers only: they are not on the active path), then the active path's, as a
    /// route leaves them. A screen renamed by a migration stays; no interceptor, guard or context
    /// task runs. A handler that fails undoes the leaves before it, and the failure says why.
    public func leaveNow(_ difference: CarryDifference) -> Result<Departure, RouteFailure> {
        guard thread.isCurrent else {
            return .failure(RouteFailure(.invalid, "leaveNow must be called on the router's thread"))
        }
        let start = tree
        let kept = difference.keptLeaving
        let keptLeaving = InstructionExecutor(router: self, destination: difference.departure ?? .path(start.activePath))
        if case .failure(let failure) = keptLeaving.runHandlers(kept) { return .failure(failure) }
        guard let destination = difference.departure else {
            return .success(Departure(keptLeft: kept, activeLeft: [], start: start))
        }
        var leaving = InstructionExecutor(router: self, destination: destination)
        leaving.runsContextTasks = false
        let left: RouteResult
        do {
            left = leaving.run(try Planner.route(from: start, to: destination), undoesFailure: true)
        } catch {
            left = .failure(error)
        }
        switch left {
        case .success(let instructions):
            return .success(Departure(keptLeft: kept, activeLeft: instructions, start: start))
        case .failure(var failure):
            if failure.rollbackFailure == nil { failure.rollbackFailure = keptLeaving.undoHandlers(kept) }
            return .failure(failure)
        }
    }

    /// Brings back what `leaveNow(_:)` left, newest first, through the one executor's undo
    /// (each screen's `enter`): a rules change that failed after its departure puts the tree back.
    /// Nil when it did; otherwise the undo step that failed, where the tree stays.
    public func returnNow(_ departure: Departure) -> RollbackFailure? {
        let executor = InstructionExecutor(router: self, destination: .path(departure.start.activePath))
        if !departure.activeLeft.isEmpty {
            let reason = RouteFailure(.invalid, "the rules change failed")
            if let stopped = executor.undo(departure.activeLeft, from: departure.start, after: reason).rollbackFailure {
                return stopped
            }
        }
        return executor.undoHandlers(departure.keptLeft)
    }

    /// Runs the handlers of what a rules change brought onto the active path
    /// (`CarryDifference.arrivals`), by this router's rules, the new ones: the tree holds it already,
    /// so only the handlers run (`InstructionExecutor.runHandlers`). A handler that fails undoes
    /// those before it, and the failure says why.
    public func enterCarried(_ arrivals: [Instruction]) -> Result<[Instruction], RouteFailure> {
        guard thread.isCurrent else {
            return .failure(RouteFailure(.invalid, "enterCarried must be called on the router's thread"))
        }
        return InstructionExecutor(router: self, destination: .path(activePath)).runHandlers(arrivals)
    }

    /// Undoes what `enterCarried` ran, newest first, by the inverses' handlers: for a rules change
    /// that fails after it. Only the screens entered that are still on the active path: a guard's
    /// redirect that ran since left the rest through its own handlers; and the switch has nothing
    /// to go back to (the child it replaced is not in these rules). Nil when all went; else the
    /// step that failed.
    public func leaveCarried(_ arrivals: [Instruction]) -> RollbackFailure? {
        guard thread.isCurrent else {
            return RollbackFailure(RouteFailure(.invalid, "leaveCarried must be called on the router's thread"))
        }
        let path = activePath
        let standing = arrivals.filter { if case .enter(let entry) = $0 { path.contains(entry) } else { false } }
        return InstructionExecutor(router: self, destination: .path(path)).undoHandlers(standing)
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

    /// Restores a prepared snapshot as one unit of work (`restore`): on the router's thread,
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
        return restore(prepared)
    }

    /// The restore as one transaction: the live kept stacks' screens the restored tree does not
    /// hold leave (their handlers only, as a rules change's do); the way from the live tree to the
    /// restored path, planned as a route's is, runs through the one executor, each instruction
    /// through its handler, so that a host shows the restored screens; then the restored tree with
    /// its kept stacks (which no instruction builds), switch histories and routes; then the guards
    /// on the restored path. A handler that fails, or a guard that denies, undoes it all.
    private func restore(_ prepared: PreparedRestore) -> RestoreOutcome {
        let start = state.withLock { state in
            state.treeWillChangeFromOutside()
            return state
        }
        let destination = Destination.path(prepared.tree.activePath)
        let route: PlannedRoute
        do {
            route = try Planner.route(from: start.tree, to: destination)
        } catch {
            return .refused("the restored tree cannot be reached from the live one: \(error.message)")
        }
        var executor = InstructionExecutor(router: self, destination: destination)
        executor.runsContextTasks = false
        let keptLeft: [Instruction]
        switch executor.runHandlers(CarryDifference(from: start.tree, to: prepared.tree).keptLeaving) {
        case .failure(let failure): return refusedRestore(failure, start: start)
        case .success(let left): keptLeft = left
        }
        switch executor.run(route, undoesFailure: true) {
        case .failure(let failure):
            return refusedRestore(failure, start: start, keptLeft: keptLeft, by: executor)
        case .success(let executed):
            state.withLock { state in
                state.tree = prepared.tree
                state.switchHistory = SwitchHistory(restoring: prepared.switchHistory)
                state.history.replace(with: prepared.routes)
            }
            return guarded(prepared, executed: executed, keptLeft: keptLeft, by: executor, start: start)
        }
    }

    /// The guards on the restored path, as `refresh()` runs them (a route to where the tree is,
    /// whose context tasks run too): passed (its check leaves no record), redirected (the
    /// redirect's route stands), or anything else, which undoes the restore.
    private func guarded(
        _ prepared: PreparedRestore, executed: [Instruction], keptLeft: [Instruction], by executor: InstructionExecutor,
        start: RouterState
    ) -> RestoreOutcome {
        // Run at once, ahead of any route a restored handler queued (those run after the restore).
        let result = RouteRun.run(RouteTicket(destination: executor.destination, wakeup: wakeup), on: self)
        let guards: RestoreGuards
        switch result {
        case .success(let instructions) where instructions.isEmpty:
            state.withLock { $0.history.replace(with: prepared.routes) }
            guards = .passed
        case .success:
            guards = .redirected(to: state.withLock { $0.history.newest?.settled } ?? .path(activePath))
        case .failure(let failure):
            let reason = RestoreGuards.refusal(failure)
            // `refusedRestore` names the kind once, in front of the reason.
            let undone = executed.isEmpty
                ? RouteFailure(failure.kind, reason)
                : executor.undo(executed, from: start.tree, after: RouteFailure(failure.kind, reason))
            return refusedRestore(undone, start: start, keptLeft: keptLeft, by: executor)
        }
        announceCarried(prepared.changes)
        return RestoreOutcome.restored(guards: guards, notes: prepared.notes).adding(prepared.changes)
    }

    /// Tells the observers that the whole tree was set (`RouterEvent.treeCarried`), kept stacks
    /// included: a restore says so when it stands, and a rules change when it commits, or when
    /// it fails after a new router took over and the previous one serves again.
    public func announceCarried(_ changes: [SnapshotChange]) {
        eventHub.emit(.treeCarried(changes))
    }

    /// Puts the router's state back as the restore found it, after `failure` (whose instructions
    /// the executor undid), with the kept stacks' screens that left back through their `enter`,
    /// and says why the restore was refused.
    private func refusedRestore(
        _ failure: RouteFailure, start: RouterState, keptLeft: [Instruction] = [], by executor: InstructionExecutor? = nil
    ) -> RestoreOutcome {
        var failure = failure
        if failure.rollbackFailure == nil, let executor { failure.rollbackFailure = executor.undoHandlers(keptLeft) }
        state.withLock { state in
            if failure.rollbackFailure == nil { state.tree = start.tree }
            state.switchHistory = start.switchHistory
            state.history = start.history
        }
        let stopped = failure.rollbackFailure.map { "; its undo stopped: \($0)" } ?? ""
        return .refused("\(failure.kind.rawValue): \(failure.message)\(stopped)")
    }
}
