/// One route, run inside the router's unit of work: its decisions (`RouteDecision`: the
/// interceptors, then the plan), each instruction's handler and the context tasks. Every step is a direct call on the router's
/// thread; a failure midway is undone (`Rollback`) when the router rolls back.
struct RouteRun {
    let router: Router
    let ticket: RouteTicket
    /// Where the route goes: the destination asked for, made absolute, then where the interceptors
    /// let it go.
    private var destination: Destination
    /// The URL the route was asked for; nil once an interceptor sent it elsewhere.
    private var url: URLResolution?

    /// Runs `ticket`'s route on `router`: `will_route`, the route, its record in the history, then
    /// `did_route` or `failed`.
    static func run(_ ticket: RouteTicket, on router: Router) -> RouteResult {
        var run = RouteRun(router: router, ticket: ticket, destination: ticket.destination, url: ticket.url)
        return run.run()
    }

    private mutating func run() -> RouteResult {
        router.eventHub.emit(.willRoute(ticket.destination))
        let result = execute()
        let record: RouteRecord
        switch result {
        case .success(let executed):
            record = RouteRecord(requested: ticket.destination, settled: destination, executed: executed, failure: nil)
        case .failure(let failure):
            record = RouteRecord(requested: ticket.destination, settled: destination, executed: failure.executed, failure: failure)
        }
        router.state.withLock { $0.history.append(record) }
        switch result {
        case .success(let executed): router.eventHub.emit(.didRoute(destination, executed: executed))
        case .failure(let failure): router.eventHub.emit(.failed(destination, failure))
        }
        return result
    }

    private mutating func execute() -> RouteResult {
        if ticket.isCancelled {
            return .failure(RouteFailure(.cancelled, "the route was cancelled before it started"))
        }
        // A modal flow's relative destination becomes a path from the root before anyone sees it.
        destination = router.tree.absolute(destination)
        let decision = RouteDecision(router: router, isDryRun: false)
        let redirected = { (from: Destination, to: Destination) in router.eventHub.emit(.redirected(from: from, to: to)) }
        switch decision.settle(destination, url: ticket.url, step: ticket.step, redirected: redirected) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let settled):
            // A redirect goes somewhere the URL did not name: its query no longer applies.
            if settled != destination { url = nil }
            destination = settled
        }
        switch decision.route(to: destination) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let plan):
            return perform(plan)
        }
    }

    private func perform(_ route: PlannedRoute) -> RouteResult {
        let plan = route.instructions
        var executed: [Instruction] = []
        var switchedAway: [(NodeID, Entry)] = []
        executed.reserveCapacity(plan.count)
        // The way back to the tree as the route starts, one step per instruction (`RouteUndoLog`).
        // A route queued from inside this one runs after it; one run inside it (a restore's guard
        // check) changes the tree from outside any route around it, whose log it then restores.
        let rollsBack = router.configuration.rollsBack && !plan.isEmpty
        let (nodes, nodesByIndex, outerLog) = router.state.withLock { state in
            state.treeWillChangeFromOutside()
            let outer = state.undoLog
            state.undoLog = rollsBack ? RouteUndoLog(capacity: plan.count) : nil
            return (state.nodes, state.nodesByIndex, outer)
        }
        defer { router.state.withLock { $0.undoLog = outerLog } }
        // A failure after some instructions ran is undone when the router rolls back.
        func failed(_ failure: RouteFailure) -> RouteResult {
            var failure = failure
            failure.executed = executed
            guard rollsBack, !executed.isEmpty,
                let start = router.state.withLock({ state in state.undoLog.map { $0.start(from: state.tree) } })
            else { return .failure(failure) }
            router.state.withLock { $0.undoLog = nil }
            return .failure(Rollback.undo(failure, executed: executed, to: start, destination: destination, on: router))
        }
        for (index, instruction) in plan.enumerated() {
            if ticket.isCancelled {
                return failed(RouteFailure(.cancelled, "the route was cancelled", instruction: instruction))
            }
            // By the node index the planner resolved: no hashing of the id per instruction.
            if let handlers = nodesByIndex.handlers(ofNode: route.steps[index].node), handlers.handles(instruction) {
                let info = InstructionInfo(
                    instruction: instruction, destination: destination, url: url, index: index, count: plan.count,
                    animated: router.configuration.animatesEachStep ? true : nil, step: ticket.step)
                if let failure = handlers.failure(running: instruction, info: info) {
                    return failed(failure)
                }
            }
            do {
                if let left = try apply(instruction, of: route, step: index) { switchedAway.append(left) }
            } catch {
                return failed(RouteFailure(.invalid, "the tree changed while the route ran: \(error)", instruction: instruction))
            }
            executed.append(instruction)
            router.eventHub.emit(.instruction(instruction))
        }
        if let failure = runContextTasks(nodes: nodes) {
            return failed(failure)
        }
        if !switchedAway.isEmpty {
            router.state.withLock { state in
                for (switchNode, child) in switchedAway { state.switchHistory.record(awayFrom: child, in: switchNode) }
            }
        }
        return .success(executed)
    }

    /// Applies the route's step `index`, `instruction` (the loop's copy, not another), to the live
    /// tree, with its step in the undo log; the child a switch node with `back_history` switched
    /// away from, if any. A handler that changed the tree (a host's report) makes the step validate
    /// again (`RoutingTree.apply(_:step:)`).
    private func apply(
        _ instruction: Instruction, of route: PlannedRoute, step index: Int
    ) throws(TreeUpdateError) -> (NodeID, Entry)? {
        try router.state.withLock { state throws(TreeUpdateError) in
            let left = BackNavigation.childSwitchedAway(by: instruction, in: state.tree)
            let step = state.undoLog != nil ? state.tree.undoStep(for: instruction) : nil
            try state.tree.apply(route, step: index)
            if let step { state.undoLog?.record(step) }
            return left
        }
    }

    /// Calls the context task of every node on the destination, root first; the first failure.
    private func runContextTasks(nodes: [NodeID: NodeHandlers]) -> RouteFailure? {
        for entry in destination.namedEntries {
            guard let task = nodes[entry.id]?.contextTask else { continue }
            do {
                try task(entry, destination)
            } catch {
                return RouteFailure(thrownBy: .contextTask(entry), error)
            }
        }
        return nil
    }
}
