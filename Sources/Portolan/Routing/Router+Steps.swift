/// Steps (RxFlow's): an event of the app that the router's flows turn into a route. A step no flow
/// handles, or one a flow's adapter refuses, is a request refused (`Router.refuse`), so the
/// history and a `failed` event tell of it, as they tell of a URL that leads nowhere.
extension Router {
    /// Adds a flow, asked after those added before (`Flow`).
    public func addFlow(_ flow: Flow) {
        state.withLock { $0.flows.append(flow) }
    }

    /// Replaces every flow: a host's, which keeps its script's and its own in one order.
    package func setFlows(_ flows: [Flow]) {
        state.withLock { $0.flows = flows }
    }

    /// The flows, in the order they are asked.
    public var flows: [Flow] {
        state.withLock { $0.flows }
    }

    /// Where `step` leads, and the step as the flows adapted it: `unreachable` when no flow
    /// handles it, `denied` when an adapter refuses it. Decides only (nothing is refused or
    /// recorded), on the caller's thread: call it on the router's, where flows are asked.
    public func resolve(step: RouteStep) -> Result<(target: RouteTarget, step: RouteStep), RouteFailure> {
        var current = step
        for flow in flows {
            do {
                switch try flow.adapt?(current) ?? .keep {
                case .keep: break
                case .step(let adapted): current = adapted
                case .refuse: return .failure(RouteFailure(.denied, "flow '\(flow.name)' refused step '\(step.name)'"))
                }
                if let target = try flow.target(current) { return .success((target, current)) }
            } catch var failure as RouteFailure {
                // A target that names no destination keeps its kind (`invalid`), and says whose it was.
                failure.message = "flow '\(flow.name)': \(failure.message)"
                return .failure(failure)
            } catch {
                return .failure(RouteFailure(thrownBy: .flow(flow.name), error))
            }
        }
        return .failure(RouteFailure(.unreachable, "no flow handles step '\(step.name)'"))
    }

    /// Where a route for `step` goes: a destination, with the URL resolution when the flows named
    /// a URL, and the step as adapted; or why not, with the URL when it was the URL that led nowhere.
    private func route(for step: RouteStep) -> Result<StepRoute, StepRefusal> {
        switch resolve(step: step) {
        case .failure(let failure):
            return .failure(StepRefusal(failure: failure, url: nil))
        case .success((.destination(let destination), let adapted)):
            return .success(StepRoute(destination: destination, url: nil, step: adapted))
        case .success((.url(let url), let adapted)):
            switch resolve(url: url) {
            case .success(let resolution): return .success(StepRoute(destination: resolution.destination, url: resolution, step: adapted))
            case .failure(let failure): return .failure(StepRefusal(failure: failure, url: url))
            }
        }
    }

    private struct StepRoute {
        let destination: Destination
        let url: URLResolution?
        let step: RouteStep
    }

    private struct StepRefusal: Error {
        let failure: RouteFailure
        let url: String?
    }

    /// What `step(_:)` would do now, decided without doing it: the flows' answer (a step that leads
    /// nowhere is the plan's failure), then the plan of the route there, the step travelling with it.
    public func plan(step: RouteStep) async -> RoutePlan {
        await thread.run { self.planNow(step: step) }
    }

    /// `plan(step:)` on the router's thread (a host's unit of work).
    public func planNow(step: RouteStep) -> RoutePlan {
        switch route(for: step) {
        case .failure(let refusal):
            var failure = refusal.failure
            if let url = refusal.url { failure.url = url }
            return RoutePlan(requested: .path([]), result: .failure(failure))
        case .success(let route):
            return RouteDecision.plan(route.destination, url: route.url, step: route.step, on: self)
        }
    }

    /// Routes to where `step` leads, and returns when the route has run.
    public func step(_ step: RouteStep) async -> RouteResult {
        await thread.run { self.stepNow(step) }
    }

    /// Routes to where `step` leads now, on the router's thread (a host's unit of work), the step
    /// travelling with the route; a step that leads nowhere is refused.
    public func stepNow(_ step: RouteStep) -> RouteResult {
        guard thread.isCurrent else {
            return .failure(refuse(RouteFailure(.invalid, "stepNow must be called on the router's thread; await step(_:)")))
        }
        switch route(for: step) {
        case .failure(let refusal):
            return .failure(refuse(refusal.failure, url: refusal.url))
        case .success(let route):
            if let resolution = route.url { return routeNow(resolved: resolution, step: route.step) }
            return routeNow(to: route.destination, step: route.step)
        }
    }

    /// Queues a route to where `step` leads, from the router's thread (a handler of the running
    /// route): the flows are asked now, so a step that leads nowhere is refused at once.
    @discardableResult
    public func enqueue(step: RouteStep, origin: RouteOrigin = .app) -> RouteTicket {
        let refusal: StepRefusal
        if !thread.isCurrent {
            refusal = StepRefusal(
                failure: RouteFailure(.invalid, "enqueue(step:) must be called on the router's thread; await step(_:)"), url: nil)
        } else {
            switch route(for: step) {
            case .failure(let refused):
                refusal = refused
            case .success(let route):
                if let resolution = route.url { return enqueue(resolved: resolution, step: route.step, origin: origin) }
                return enqueue(to: route.destination, step: route.step, origin: origin)
            }
        }
        let ticket = RouteTicket(destination: .path([]))
        ticket.finish(.failure(refuse(refusal.failure, url: refusal.url)))
        return ticket
    }
}
