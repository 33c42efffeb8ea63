import Portolan

/// Routing from Swift: the module's calls (`portolan.route`, `step`, `plan`, `back`, `refresh`, `resume`,
/// `reset_tabs`), URLs and the observers of what routes do, each one unit of work on the host's thread.
extension PortolanHost {
    /// Routes as `portolan.route` does; routes queued by its handlers and observers run before
    /// this returns. Cancelling the calling task ends a handler's wait; the route fails as `cancelled`.
    public func route(_ destination: Destination) -> RouteResult {
        core.route(destination)
    }

    /// Routes to where a URL leads, as `portolan.route("/movies/42")` does.
    /// One that leads nowhere (no pattern matches it, it is malformed or from a foreign origin)
    /// is refused as a request: `failed` goes out alone and the history records it
    /// (`Router.refuse`).
    public func route(url: String) -> RouteResult {
        core.route(url: url)
    }

    /// Routes to where the app's flows send `step` as `portolan.step` does (RxFlow's step), the step travelling with the
    /// route; a step no flow handles is refused as `unreachable`, one an adapter refuses as `denied`.
    public func step(_ step: RouteStep) -> RouteResult {
        core.step(step)
    }

    /// Re-runs the guards and interceptors for the active path, as `portolan.refresh()` does: call
    /// it when what they depend on changed (a logout). Nothing runs when they pass; a redirect
    /// routes there; a denial fails as `denied`.
    public func refresh() -> RouteResult {
        core.refresh()
    }

    /// Leaves the top screen (the deepest node no switch node manages), as `portolan.back()` does;
    /// `unreachable` when there is none to leave.
    public func back() -> RouteResult {
        core.back()
    }

    /// Goes back as far as `distance` says, in one route, as `portolan.back(n)` and
    /// `portolan.back { keep = k }` do.
    public func back(_ distance: BackDistance) -> RouteResult {
        core.back(distance)
    }

    /// Drops the stacks the switch nodes of the active path keep for their other children (all of
    /// them, or `switchID`'s), as `portolan.reset_tabs()` does: after a logout, the other tabs show
    /// as first shown. Returns the screens dropped; no handler runs (none was showing).
    @discardableResult
    public func resetTabs(of switchID: NodeID? = nil) throws(TreeUpdateError) -> [Entry] {
        guard let router = core.router else { return [] }
        return try router.resetTabs(of: switchID)
    }

    /// Where a route was going when a guard redirected it with `{ resume = true }`, or nil.
    public var pendingDestination: Destination? {
        core.session.pendingResume?.destination
    }

    /// Routes to the pending destination and forgets it, as `portolan.resume()` does; nil when
    /// nothing is pending. One asked for by URL is routed by that URL (its handlers' `info.url`).
    public func resume() -> RouteResult? {
        core.resume()
    }

    /// Where a URL leads, as `portolan.match` says: after the app's redirect rules (those written
    /// as Lua functions included), the node, pattern and destination it resolves to.
    public func resolve(url: String) -> Result<URLResolution, RouteFailure> {
        core.resolve(url: url)
    }

    /// Routes to a URL resolved by ``resolve(url:)``, without resolving it again.
    public func route(resolved resolution: URLResolution) -> RouteResult {
        core.route(resolved: resolution)
    }

    /// Calls `observer` with every URL routed to through this host, once resolved: the node and
    /// the pattern it matched (what a coverage report counts).
    public func observeURLs(_ observer: @escaping @Sendable (URLResolution) -> Void) {
        core.observers.urls = observer
    }

    /// Calls `observer` with every router event, synchronously on the host's thread, whichever
    /// router the app has at the time: one declared or loaded later, or declared again by a reload,
    /// included. Each observer added is called, in the order they were added.
    public func observeEvents(_ observer: @escaping @Sendable (RouterEvent) -> Void) {
        core.observers.events.append { event, _ in observer(event) }
    }

    /// ``observeEvents(_:)`` with the step of the route each event belongs to (`portolan.step`),
    /// or nil: what the REPL shows beside an event.
    package func observeEventsAndSteps(_ observer: @escaping @Sendable (RouterEvent, RouteStep?) -> Void) {
        core.observers.events.append(observer)
    }

    /// A stream of every router event from now on, whichever router the app has: it goes on across
    /// every reload and every later declaration of the app (a stream taken from `router` ends when a
    /// reload replaces it). It ends when its reader stops iterating; a reader more than
    /// `Router.eventBufferLimit` events behind loses the oldest of them. Any thread may take one.
    public nonisolated func events() -> AsyncStream<RouterEvent> {
        core.eventStreams.stream()
    }

    /// What `route` would do now, decided without doing it, as `portolan.plan` says: the guards,
    /// interceptors, redirects and `can_leave` answer (`request.dry_run` is true); no handler,
    /// context task or observer runs, and the tree, history and pending resume stay (`RoutePlan`).
    public func plan(_ destination: Destination) -> RoutePlan {
        core.plan(destination)
    }

    /// What `step(_:)` would do: the flows' answer, then the plan of the route there.
    public func plan(step: RouteStep) -> RoutePlan {
        core.plan(step: step)
    }

    /// `plan(_:)` for a URL, resolved as `route(url:)` resolves it; interceptors see its query.
    public func plan(url: String) -> RoutePlan {
        core.plan(url: url)
    }

    /// `plan(_:)` for a URL resolved by ``resolve(url:)``, without resolving it again.
    public func plan(resolved resolution: URLResolution) -> RoutePlan {
        core.router?.planNow(resolved: resolution) ?? core.plan(resolution.destination)
    }
}
