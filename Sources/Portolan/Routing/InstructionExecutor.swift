/// The one way instructions reach the node handlers and the tree. A route runs its plan through
/// it, a restore runs the way to the restored path through it, and either one's undo runs through
/// it when it fails.
///
/// Forward, each instruction runs its node's handler, then its step on the live tree (kept in the
/// router's undo log, `RouteUndoLog`), then its `instruction` event. The destination's context
/// tasks run after the last instruction, and the switches that go back through their history
/// record what they left once everything has run. A cancelled ticket stops the run before its
/// next instruction.
///
/// Undoing, each executed instruction's inverse (`enter` ↔ `leave`, a switch back to the child
/// it left, an update back to the context it replaced, `remove` ↔ `insert`, a move back to where
/// the screen stood) runs its handler and its step, newest first, with a `rolledBack` event.
/// When every step succeeds the tree is set to the value it had at the start, so what no inverse
/// can rebuild exactly (the stacks inside a left switch node) comes back too. When a step fails,
/// the undo stops there and the tree reflects exactly what ran.
///
/// The screens of a kept stack are off the active path: a rules change that takes them away runs
/// only their handlers (`runHandlers`), and their undo only their inverses' (`undoHandlers`).
struct InstructionExecutor {
    let router: Router
    /// Where the instructions lead, as every handler is told (`InstructionInfo.destination`).
    let destination: Destination
    /// The URL the route was asked for, if it still applies.
    var url: URLResolution?
    /// The step that asked for the route, if one did.
    var step: RouteStep?
    /// The ticket whose cancellation stops the run; nil for a run nobody can cancel (a restore's).
    var ticket: RouteTicket?
    /// Whether the destination's context tasks run after the instructions: a restore's run leaves
    /// them to the guard check that follows it, a route on the restored tree, so they run once.
    var runsContextTasks = true

    init(router: Router, destination: Destination, url: URLResolution? = nil, step: RouteStep? = nil, ticket: RouteTicket? = nil) {
        self.router = router
        self.destination = destination
        self.url = url
        self.step = step
        self.ticket = ticket
    }

    /// Runs `route`'s instructions. A failure after some of them ran is undone when
    /// `undoesFailure` (`undo`); the failure carries the instructions that ran and their undo.
    func run(_ route: PlannedRoute, undoesFailure: Bool) -> RouteResult {
        let plan = route.instructions
        // What ran is always the plan's first `executedCount` instructions: counted rather than
        // copied into a list of their own, a copy and a destroy of every instruction (callgrind).
        var executedCount = 0
        var switchedAway: [BackNavigation.SwitchAway] = []
        // A route queued from inside this run runs after it; one run inside it (a restore's guard
        // check) changes the tree from outside any run around it, whose log it then restores.
        let keepsUndoLog = undoesFailure && !plan.isEmpty
        let (nodes, nodesByIndex, outerLog) = router.state.withLock { state in
            state.treeWillChangeFromOutside()
            let outer = state.undoLog
            state.undoLog = keepsUndoLog ? RouteUndoLog(capacity: plan.count) : nil
            return (state.nodes, state.nodesByIndex, outer)
        }
        defer { router.state.withLock { $0.undoLog = outerLog } }
        func failed(_ failure: RouteFailure) -> RouteResult {
            var failure = failure
            let executed = Array(plan[..<executedCount])
            failure.executed = executed
            guard keepsUndoLog, !executed.isEmpty,
                let start = router.state.withLock({ state in state.undoLog.map { $0.start(from: state.tree) } })
            else { return .failure(failure) }
            router.state.withLock { $0.undoLog = nil }
            return .failure(undo(executed, from: start, after: failure))
        }
        for (index, instruction) in plan.enumerated() {
            if ticket?.isCancelled == true {
                return failed(RouteFailure(.cancelled, "the route was cancelled", instruction: instruction))
            }
            // By the node index the planner resolved: no hashing of the id per instruction.
            if let handlers = nodesByIndex.handlers(ofNode: route.steps[index].node), handlers.handles(instruction) {
                if let failure = handlers.failure(running: instruction, info: info(for: instruction, index: index, count: plan.count)) {
                    return failed(failure)
                }
            }
            do {
                if let left = try apply(instruction, of: route, step: index) { switchedAway.append(left) }
            } catch {
                return failed(RouteFailure(.invalid, "the tree changed while the route ran: \(error)", instruction: instruction))
            }
            executedCount += 1
            router.eventHub.emit(.instruction(instruction))
        }
        if runsContextTasks, let failure = runContextTasks(nodes: nodes) {
            return failed(failure)
        }
        if !switchedAway.isEmpty {
            router.state.withLock { state in
                for away in switchedAway {
                    state.switchHistory.record(awayFrom: away.child, to: away.target, in: away.switchNode, back: away.back)
                }
            }
        }
        return .success(plan)
    }

    /// Undoes `executed`, which ran from the tree `start`, newest first, and adds the undo to
    /// `failure`: the steps that ran, and why it stopped if it did.
    func undo(_ executed: [Instruction], from start: RoutingTree, after failure: RouteFailure) -> RouteFailure {
        var failure = failure
        let inverses = Self.inverses(of: executed, from: start)
        let nodes = router.state.withLock { $0.nodes }
        for (offset, inverse) in inverses.reversed().enumerated() {
            if let stepFailure = handlerFailure(running: inverse, among: nodes, index: offset, count: inverses.count) {
                failure.rollbackFailure = RollbackFailure(stepFailure)
                return failure
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

    /// Runs only the handlers of `instructions`, which stand for screens off the active path (the
    /// kept stacks a rules change takes away): the tree holds those as kept values, so no step
    /// changes it, and no `instruction` event is sent (the whole tree's announcement tells a UI).
    /// A handler that fails brings back those before it (`undoHandlers`), and the failure says so.
    func runHandlers(_ instructions: [Instruction]) -> Result<[Instruction], RouteFailure> {
        let nodes = router.state.withLock { $0.nodes }
        for (index, instruction) in instructions.enumerated() {
            guard var failure = handlerFailure(running: instruction, among: nodes, index: index, count: instructions.count) else {
                continue
            }
            let ran = Array(instructions[..<index])
            failure.executed = ran
            if let stopped = undoHandlers(ran) {
                failure.rollbackFailure = stopped
            } else {
                failure.rolledBack = ran.reversed().map { Self.inverse(of: $0, in: router.tree) }
            }
            return .failure(failure)
        }
        return .success(instructions)
    }

    /// Runs the inverse handlers of what `runHandlers` ran (`ran`), newest first. Nil when all
    /// succeed; otherwise the one that failed, where it stops.
    func undoHandlers(_ ran: [Instruction]) -> RollbackFailure? {
        let nodes = router.state.withLock { $0.nodes }
        let tree = router.tree
        for (offset, instruction) in ran.reversed().enumerated() {
            let inverse = Self.inverse(of: instruction, in: tree)
            if let failure = handlerFailure(running: inverse, among: nodes, index: offset, count: ran.count) {
                return RollbackFailure(failure)
            }
        }
        return nil
    }

    /// Runs the handler of `instruction`'s node, if it has one for it, as the `index`th of
    /// `count`; how it failed, or nil. (The route's forward loop finds handlers by the node index
    /// the planner resolved instead, to hash no id per instruction.)
    private func handlerFailure(
        running instruction: Instruction, among nodes: [NodeID: NodeHandlers], index: Int, count: Int
    ) -> RouteFailure? {
        guard let handlers = nodes[instruction.handlingNode.id], handlers.handles(instruction) else { return nil }
        return handlers.failure(running: instruction, info: info(for: instruction, index: index, count: count))
    }

    /// What a handler is told about `instruction`, the `index`th of `count`.
    private func info(for instruction: Instruction, index: Int, count: Int) -> InstructionInfo {
        InstructionInfo(
            instruction: instruction, destination: destination, url: url, index: index, count: count,
            animated: router.configuration.animatesEachStep ? true : nil, step: step)
    }

    /// Applies the route's step `index`, `instruction` (the loop's copy, not another), to the live
    /// tree, with its step in the undo log; the child a switch node that keeps a history switched
    /// away from, if any. A handler that changed the tree (a host's report) makes the step validate
    /// again (`RoutingTree.apply(_:step:)`).
    private func apply(
        _ instruction: Instruction, of route: PlannedRoute, step index: Int
    ) throws(TreeUpdateError) -> BackNavigation.SwitchAway? {
        try router.state.withLock { state throws(TreeUpdateError) in
            let left = BackNavigation.childSwitchedAway(by: instruction, in: state.tree)
            // Two branches rather than an optional step: the optional's destroy went through
            // Optional's generic witness, two calls an instruction (callgrind).
            if state.undoLog != nil {
                let step = state.tree.undoStep(for: instruction)
                try state.tree.apply(route, step: index)
                state.undoLog?.record(step)
            } else {
                try state.tree.apply(route, step: index)
            }
            return left
        }
    }

    /// Calls the context task of every node on the destination, root first; the first failure.
    private func runContextTasks(nodes: [NodeID: NodeHandlers]) -> RouteFailure? {
        for entry in destination.entries(from: router.tree.activePath) {
            guard let task = nodes[entry.id]?.contextTask else { continue }
            do {
                try task(entry, destination)
            } catch {
                return RouteFailure(thrownBy: .contextTask(entry), error)
            }
        }
        return nil
    }

    // MARK: Inverses

    /// The instruction that undoes `instruction`, read from the tree as it is just before it runs.
    static func inverse(of instruction: Instruction, in tree: RoutingTree) -> Instruction {
        switch instruction {
        case .enter(let entry):
            return .leave(entry)
        case .leave(let entry):
            return .enter(entry)
        case .update(let entry, let updated):
            return .update(updated, to: entry)
        case .insert(let entry, _):
            return .remove(entry)
        case .remove(let entry):
            // Put back under the screen that stands on it now (a removal is never of the top).
            return .insert(entry, under: tree.entry(above: entry) ?? entry)
        case .move(let entry, _):
            return .move(entry, under: tree.entry(above: entry))
        case .switch(let switchNode, let target):
            // The child showing now is the one to switch back to.
            guard let depth = tree.activePath.lastIndex(of: switchNode), depth + 1 < tree.activePath.count else {
                return .switch(switchNode, to: target)
            }
            return .switch(switchNode, to: tree.activePath[depth + 1])
        }
    }

    /// The inverse of each executed instruction, in execution order, read by replaying them on the
    /// tree as the run started (done only when a run fails, so one that succeeds pays nothing).
    static func inverses(of executed: [Instruction], from start: RoutingTree) -> [Instruction] {
        var tree = start
        return executed.map { instruction in
            let inverse = inverse(of: instruction, in: tree)
            try? tree.apply(instruction)
            return inverse
        }
    }
}
