/// Transactional routes: a route that fails midway is undone, newest instruction first, so the
/// tree ends where it started (`RouterConfiguration.rollsBack`).
///
/// Each undo step is the inverse of an executed instruction (`enter` ↔ `leave`, a switch back to
/// the child it left) and runs that inverse's handler, as any instruction would. When every step
/// succeeds, the tree is set to the value it had before the route, so what no inverse can
/// rebuild exactly (the stacks inside a left switch node) comes back too. When a step fails, the
/// undo stops there and the tree reflects exactly what ran.
enum Rollback {
    /// The instruction that undoes `instruction`, read from the tree as it is just before it runs.
    static func inverse(of instruction: Instruction, in tree: RoutingTree) -> Instruction {
        switch instruction {
        case .enter(let entry):
            return .leave(entry)
        case .leave(let entry):
            return .enter(entry)
        case .switch(let switchNode, let target):
            // The child showing now is the one to switch back to.
            guard let depth = tree.activePath.lastIndex(of: switchNode), depth + 1 < tree.activePath.count else {
                return .switch(switchNode, to: target)
            }
            return .switch(switchNode, to: tree.activePath[depth + 1])
        }
    }

    /// The inverse of each executed instruction, in execution order, read by replaying them on the
    /// tree as the route started (done only when a route fails, so a route that succeeds pays nothing).
    static func inverses(of executed: [Instruction], from start: RoutingTree) -> [Instruction] {
        var tree = start
        return executed.map { instruction in
            let inverse = inverse(of: instruction, in: tree)
            try? tree.apply(instruction)
            return inverse
        }
    }

    /// Undoes the executed instructions on `router`, newest first, and adds the undo to `failure`:
    /// the steps that ran, and why it stopped if it did.
    static func undo(
        _ failure: RouteFailure, executed: [Instruction], to start: RoutingTree, destination: Destination, on router: Router
    ) -> RouteFailure {
        var failure = failure
        let undo = inverses(of: executed, from: start)
        let nodes = router.state.withLock { $0.nodes }
        for (offset, inverse) in undo.reversed().enumerated() {
            if let handlers = nodes[inverse.handlingNode.id], handlers.handles(inverse) {
                let info = InstructionInfo(
                    instruction: inverse, destination: destination, index: offset, count: undo.count,
                    animated: router.configuration.animatesEachStep ? true : nil)
                if let stepFailure = handlers.failure(running: inverse, info: info) {
                    failure.rollbackFailure = RollbackFailure(stepFailure)
                    return failure
                }
            }
            do {
                try router.state.withLock { state throws(TreeUpdateError) in try state.tree.apply(inverse) }
            } catch {
                failure.rollbackFailure = RollbackFailure(RouteFailure(.invalid, "the tree changed: \(error)", instruction: inverse))
                return failure
            }
            failure.rolledBack.append(inverse)
            router.eventHub.emit(.rolledBack(inverse))
        }
        router.state.withLock { $0.tree = start }
        return failure
    }
}
