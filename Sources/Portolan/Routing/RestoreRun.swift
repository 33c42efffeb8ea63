/// A restore, run inside the router's unit of work as one transaction: the instructions from the
/// tree as it is to the restored one, each through its handler as a route runs it; then the
/// restored tree with its kept stacks and histories; then the guards on the restored path, as
/// `refresh()` runs them. A handler that fails, or a guard that denies, undoes it all (`Rollback`
/// for the instructions that ran), so the tree is as it was before.
struct RestoreRun {
    let router: Router
    let prepared: PreparedRestore

    func run() -> RestoreOutcome {
        let start = router.state.withLock { state in
            state.treeWillChangeFromOutside()
            return state
        }
        guard let plan = TreeTransition.instructions(from: start.tree, to: prepared.tree) else {
            return .refused("the restored tree cannot be reached from the live one")
        }
        let destination = Destination.path(prepared.tree.activePath)
        var executed: [Instruction] = []
        let nodes = start.nodes
        for (index, instruction) in plan.enumerated() {
            if let handlers = nodes[instruction.handlingNode.id], handlers.handles(instruction) {
                let info = InstructionInfo(
                    instruction: instruction, destination: destination, index: index, count: plan.count,
                    animated: router.configuration.animatesEachStep ? true : nil)
                if let failure = handlers.failure(running: instruction, info: info) {
                    return undo(failure, executed: executed, start: start)
                }
            }
            do {
                try router.state.withLock { state throws(TreeUpdateError) in try state.tree.apply(instruction) }
            } catch {
                return undo(RouteFailure(.invalid, "the tree changed while it was restored: \(error)"), executed: executed, start: start)
            }
            executed.append(instruction)
            router.eventHub.emit(.instruction(instruction))
        }
        router.state.withLock { state in
            state.tree = prepared.tree
            state.switchHistory = SwitchHistory(restoring: prepared.switchHistory)
            state.history.replace(with: prepared.routes)
        }
        return guarded(executed: executed, start: start)
    }

    /// The guards on the restored path: passed (its check leaves no record), redirected (the
    /// redirect's route stands), or anything else, which undoes the restore.
    private func guarded(executed: [Instruction], start: RouterState) -> RestoreOutcome {
        let restoredPath = prepared.tree.activePath
        // Run at once, ahead of any route a restored handler queued (those run after the restore).
        let result = RouteRun.run(RouteTicket(destination: .path(restoredPath), wakeup: router.wakeup), on: router)
        let guards: RestoreGuards
        switch result {
        case .success(let instructions) where instructions.isEmpty:
            router.state.withLock { $0.history.replace(with: prepared.routes) }
            guards = .passed
        case .success:
            guards = .redirected(to: router.state.withLock { $0.history.newest?.settled } ?? .path(router.activePath))
        case .failure(let failure):
            let reason = failure.kind == .denied ? "a guard denies the restored path: \(failure.message)" : failure.message
            // `undo` names the kind once, in front of the reason.
            return undo(RouteFailure(failure.kind, reason), executed: executed, start: start)
        }
        return prepared.changes.isEmpty
            ? .restored(guards: guards, notes: prepared.notes) : .migrated(prepared.changes, guards: guards, notes: prepared.notes)
    }

    /// Undoes the instructions that ran and puts the router's state back as it was.
    private func undo(_ failure: RouteFailure, executed: [Instruction], start: RouterState) -> RestoreOutcome {
        var failure = failure
        if !executed.isEmpty {
            failure = Rollback.undo(failure, executed: executed, to: start.tree, destination: .path(prepared.tree.activePath), on: router)
        }
        router.state.withLock { state in
            if failure.rollbackFailure == nil { state.tree = start.tree }
            state.switchHistory = start.switchHistory
            state.history = start.history
        }
        let stopped = failure.rollbackFailure.map { "; its undo stopped: \($0)" } ?? ""
        return .refused("\(failure.kind.rawValue): \(failure.message)\(stopped)")
    }
}
