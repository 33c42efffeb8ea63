/// The decisions of a route, the one path a route (`RouteRun`) and a plan (`Router.plan`) both
/// take: the interceptors in turn, then the guard of each node on the way (a redirect asks them
/// all again on its new destination, until the chain settles, loops or grows past
/// `maxRedirects`), then the planner,
/// asking each node it would leave whether it may (`canLeave`). A route acts on the answer; a
/// plan only reports it.
struct RouteDecision {
    let router: Router
    /// Whether the answer is only reported (`RouteRequest.isDryRun`).
    let isDryRun: Bool

    /// Where a request goes: a destination, and the URL that named it, if one did (its query and
    /// fragment travel with the route).
    struct Target {
        var destination: Destination
        var url: URLResolution?

        /// go_router's "location": the destination, with the query and fragment a URL gave it.
        func isSameLocation(as other: Target) -> Bool {
            destination == other.destination && url?.query ?? [] == other.url?.query ?? []
                && url?.fragment == other.url?.fragment
        }

        /// How a chain shows it: the destination, and the URL when one named it.
        var shown: String {
            "'\(destination)'" + (url.map { " (\(Excerpt.of($0.url)))" } ?? "")
        }
    }

    /// Plans a route to `destination` without running it: what `Router.plan(to:)` answers.
    static func plan(_ destination: Destination, url: URLResolution?, step: RouteStep? = nil, on router: Router) -> RoutePlan {
        let decision = RouteDecision(router: router, isDryRun: true)
        let requested = router.tree.absolute(destination)
        var redirects: [Destination] = []
        switch decision.settle(requested, url: url, step: step, redirected: { _, target in redirects.append(target) }) {
        case .failure(let failure):
            return RoutePlan(requested: requested, redirects: redirects, result: .failure(failure))
        case .success(let settled):
            return RoutePlan(requested: requested, redirects: redirects, result: decision.instructions(to: settled.destination))
        }
    }

    /// Where the route settles after every interceptor and guard let it pass, or why not;
    /// `redirected` hears each redirect as it is decided. A redirect to where the request already
    /// goes is a pass.
    func settle(
        _ requested: Destination, url: URLResolution?, step: RouteStep?, redirected: (Destination, Destination) -> Void
    ) -> Result<Target, RouteFailure> {
        let (interceptors, nodes, hasGuards) = router.state.withLock {
            ($0.interceptors, $0.nodes, $0.nodesByIndex.guardCount > 0)
        }
        var current = Target(destination: requested, url: url)
        var guards = hasGuards ? Self.guards(on: current.destination, from: router.activePath, in: nodes) : []
        var chain = [current]
        var index = 0
        while index < interceptors.count + guards.count {
            let request = RouteRequest(
                destination: current.destination, from: router.activePath, url: current.url, step: step,
                isDryRun: isDryRun, redirectedFrom: chain.count > 1 ? requested : nil)
            let next: Target?
            do {
                next = try target(of: decide(request, by: index, interceptors: interceptors, guards: guards))
            } catch {
                return .failure(error)
            }
            guard let next, !next.isSameLocation(as: current) else {
                index += 1
                continue
            }
            chain.append(next)
            let unsettled = RouteFailure.unsettled(
                chain, limit: router.configuration.maxRedirects, words: ("redirect loop", "too many redirects"),
                isSame: { $0.isSameLocation(as: $1) }, shown: \.shown, place: { "'\($0.destination)'" })
            if let unsettled { return .failure(unsettled) }
            redirected(current.destination, next.destination)
            current = next
            if hasGuards { guards = Self.guards(on: current.destination, from: router.activePath, in: nodes) }
            index = 0
        }
        return .success(current)
    }

    /// A guard on a route's way: the entry of its node on the destination, and its decision.
    private typealias Guard = (entry: Entry, decide: (RouteRequest) throws -> InterceptionDecision)

    /// The guards of the nodes on `destination`'s way, from the root down: each holds for every
    /// route to its node or through it, whether or not the route enters the node now.
    private static func guards(on destination: Destination, from activePath: [Entry], in nodes: [NodeID: NodeHandlers]) -> [Guard] {
        destination.entries(from: activePath).compactMap { entry in nodes[entry.id]?.guardRoute.map { (entry, $0) } }
    }

    /// The decision of the `index`th decider of a route: the router's interceptors in turn, then
    /// the guards. What one throws fails the route, naming which one it was.
    private func decide(
        _ request: RouteRequest, by index: Int, interceptors: [InterceptorHandler], guards: [Guard]
    ) throws(RouteFailure) -> InterceptionDecision {
        if index < interceptors.count {
            do { return try interceptors[index].decide(request) } catch { throw RouteFailure(thrownBy: .interceptor, error) }
        }
        let found = guards[index - interceptors.count]
        do { return try found.decide(request) } catch { throw RouteFailure(thrownBy: .guard(found.entry), error) }
    }

    /// Where a decision sends the request: nil to let it pass; a denial is thrown.
    private func target(of decision: InterceptionDecision) throws(RouteFailure) -> Target? {
        switch decision {
        case .pass:
            return nil
        case .deny(let reason):
            throw RouteFailure(.denied, reason)
        case .redirect(let destination):
            // A redirect to a push or a live copy is a path by the time the next one sees it.
            return Target(destination: router.tree.absolute(destination), url: nil)
        case .redirectToURL(let text):
            switch router.resolve(url: text) {
            case .success(let resolution):
                return Target(destination: router.tree.absolute(resolution.destination), url: resolution)
            case .failure(var failure):
                failure.message = "a redirect names an invalid destination: \(failure.message)"
                throw failure
            }
        }
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
