/// The decisions of a route, the one path a route (`RouteRun`) and a plan (`Router.plan`) both
/// take: the interceptors, guards included, in turn (a redirect runs them all again on its new
/// destination, under `maxRedirects`), then the planner, asking each node it would leave whether
/// it may (`canLeave`). A route acts on the answer; a plan only reports it.
struct RouteDecision {
    let router: Router
    /// Whether the answer is only reported (`RouteRequest.isDryRun`).
    let isDryRun: Bool

    /// Plans a route to `destination` without running it: what `Router.plan(to:)` answers.
    static func plan(_ destination: Destination, url: URLResolution?, on router: Router) -> RoutePlan {
        let decision = RouteDecision(router: router, isDryRun: true)
        let requested = router.tree.absolute(destination)
        var redirects: [Destination] = []
        switch decision.settle(requested, url: url, step: nil, redirected: { _, target in redirects.append(target) }) {
        case .failure(let failure):
            return RoutePlan(requested: requested, redirects: redirects, result: .failure(failure))
        case .success(let settled):
            return RoutePlan(requested: requested, redirects: redirects, result: decision.instructions(to: settled))
        }
    }

    /// The destination the route settles on after every interceptor let it pass, or why not;
    /// `redirected` hears each redirect as it is decided.
    func settle(
        _ requested: Destination, url: URLResolution?, step: RouteStep?, redirected: (Destination, Destination) -> Void
    ) -> Result<Destination, RouteFailure> {
        let interceptors = router.state.withLock { $0.interceptors }
        let maxRedirects = router.configuration.maxRedirects
        var destination = requested
        var chain = [requested]
        var index = 0
        while index < interceptors.count {
            let request = RouteRequest(
                destination: destination, from: router.activePath, url: chain.count == 1 ? url : nil, step: step,
                isDryRun: isDryRun)
            let decision: InterceptionDecision
            do {
                decision = try interceptors[index].decide(request)
            } catch {
                return .failure(RouteFailure(thrownBy: .interceptor, error))
            }
            switch decision {
            case .pass:
                index += 1
            case .deny(let reason):
                return .failure(RouteFailure(.denied, reason))
            case .redirect(var target):
                // A redirect to a push or a live copy is a path by the time the next one sees it.
                if target.isRelativeToLiveTree { target = router.tree.absolute(target) }
                chain.append(target)
                guard chain.count - 1 <= maxRedirects else {
                    let shown = chain.map { "'\($0)'" }.joined(separator: " → ")
                    return .failure(RouteFailure(.invalid, "redirect loop: more than \(maxRedirects) redirects: \(shown)"))
                }
                redirected(destination, target)
                destination = target
                index = 0
            }
        }
        return .success(destination)
    }

    /// The instructions a route to `destination` would execute from the tree as it is, with every
    /// node it would leave asked whether it may be, in plan order; the first refusal is `blocked`.
    func instructions(to destination: Destination) -> RouteResult {
        route(to: destination).map(\.instructions)
    }

    /// The same plan with its steps, as a route applies it (`RoutingTree.apply(_:step:)`).
    func route(to destination: Destination) -> Result<PlannedRoute, RouteFailure> {
        let (tree, nodes, asksLeave) = router.state.withLock { ($0.tree, $0.nodes, $0.nodesByIndex.canLeaveCount > 0) }
        return Result { () throws(RouteFailure) in
            // With no `canLeave` bound, every node may be left: no lookup of its id per leave.
            guard asksLeave else { return try Planner.route(from: tree, to: tree.absolute(destination)) }
            return try Planner.route(from: tree, to: tree.absolute(destination)) { entry in
                try nodes[entry.id]?.canLeave?(entry) ?? true
            }
        }
    }
}
