/// One route, run inside the router's unit of work: its decisions (`RouteDecision`: the
/// interceptors, then the plan), then the plan through the one executor (`InstructionExecutor`:
/// the handlers, the tree, the context tasks, and the undo of a failure midway). Every step is a
/// direct call on the router's thread.
struct RouteRun {
    let router: Router
    let ticket: RouteTicket
    /// Where the route goes: the destination asked for, made absolute, then where the interceptors
    /// let it go.
    private var destination: Destination
    /// The URL that named where the route goes: the one asked for, or the one a redirect named;
    /// nil once a redirect sent it to a destination.
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
            // A redirect to a destination drops the URL; one to a URL brings its own.
            destination = settled.destination
            url = settled.url
        }
        switch decision.route(to: destination) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let plan):
            return perform(plan)
        }
    }

    /// Runs the plan through the one executor, which undoes a failure midway when the router
    /// rolls back.
    private func perform(_ route: PlannedRoute) -> RouteResult {
        let executor = InstructionExecutor(router: router, destination: destination, url: url, step: ticket.step, ticket: ticket)
        return executor.run(route, undoesFailure: router.configuration.rollsBack)
    }
}
