import Synchronization

/// Runs routes on a live tree, one at a time, calling the handlers of the nodes on the way.
///
/// **One owner, units of work.** A router's routes run on its `SerialThread`, never on Swift's
/// cooperative pool. A route is one unit of work: its interceptors, handlers and observers are
/// direct calls on that thread, and it suspends only where a handler really waits. A route asked
/// for while another runs (by a handler, an interceptor or an observer) is queued, first in first
/// out, and runs before the outermost route returns, so events keep their causal order:
/// `will a, did a, will b, did b`.
///
/// Reading the tree, binding nodes, reporting host changes and queuing routes are synchronous and
/// safe from any thread. A host that owns the thread (a scripting host whose actor runs on it)
/// routes with `routeNow(to:)`; everyone else awaits `route(to:)`.
public final class Router: Sendable {
    public let configuration: RouterConfiguration
    /// The thread routes run on.
    public let thread: SerialThread
    /// What wakes a wait of this router's routes (a cancelled ticket, the end of an async node):
    /// its host's, when a host owns the thread, so that the host's interrupt wakes it too.
    public let wakeup: Wakeup
    /// The tree, the bindings, the redirect rules, the routes queued and the histories.
    let state: Mutex<RouterState>
    /// Who hears the router's events: its observers and the streams of `events()`.
    let eventHub = RouterEventHub(bufferLimit: Router.eventBufferLimit)

    /// The most events a stream of `events()` holds for a reader that does not keep up
    /// (`RouterEventHub.bufferLimit`).
    public static let eventBufferLimit = 1_000

    /// The router whose route is running in the current task (an async Swift handler's), so that
    /// a handler awaiting `route(to:)` is told at once instead of waiting for itself forever.
    @TaskLocal static var routingRouter: ObjectIdentifier?

    public init(tree: RoutingTree, configuration: RouterConfiguration = .init(), thread: SerialThread? = nil, wakeup: Wakeup? = nil) {
        self.configuration = configuration
        self.thread = thread ?? SerialThread(name: "portolan.router")
        self.wakeup = wakeup ?? Wakeup()
        self.state = Mutex(RouterState(tree: tree, history: RouteHistory(limit: configuration.historyLimit)))
    }

    public convenience init(graph: NavigationGraph, configuration: RouterConfiguration = .init()) {
        self.init(tree: RoutingTree(graph: graph), configuration: configuration)
    }

    public var tree: RoutingTree { state.withLock { $0.tree } }

    public var activePath: [Entry] { tree.activePath }

    /// The finished routes, newest last, at most `configuration.historyLimit` of them.
    public var history: [RouteRecord] {
        state.withLock { $0.history.records }
    }

    // MARK: Setting up

    /// Binds a Swift object that handles the node `id`; it replaces any earlier binding. Its
    /// `async` handlers run on the cooperative pool while the route waits for them, within the
    /// time limit.
    public func bind(_ node: any Routable, to id: NodeID) {
        bind(NodeHandlers(waitingFor: node, router: self), to: id)
    }

    /// Binds handlers that run on the router's thread (see `NodeHandlers`).
    public func bind(_ handlers: NodeHandlers, to id: NodeID) {
        state.withLock { state in
            state.nodes[id] = handlers
            state.nodesByIndex.bind(handlers, to: id, in: state.tree.graph)
        }
    }

    public func unbind(_ id: NodeID) {
        state.withLock { state in
            state.nodes[id] = nil
            state.nodesByIndex.bind(nil, to: id, in: state.tree.graph)
        }
    }

    /// Adds an interceptor whose `async` decision the route waits for, within the time limit.
    public func addInterceptor(_ interceptor: any RouteInterceptor) {
        addInterceptor(InterceptorHandler(waitingFor: interceptor, router: self))
    }

    /// Adds an interceptor that runs on the router's thread.
    public func addInterceptor(_ interceptor: InterceptorHandler) {
        state.withLock { $0.interceptors.append(interceptor) }
    }

    /// Adds a rule that rewrites URLs before they are matched (`/old/:id` → `/books/:id`).
    public func addRedirectRule(from pattern: String, to template: String) throws(URLRoutingError) {
        try state.withLock { state throws(URLRoutingError) in try state.redirects.add(from: pattern, to: template) }
    }

    /// Adds a rule that rewrites URLs with a function: it returns the new URL, or nil to leave it
    /// to the next rule. Rules of both kinds run in the order they were added, under one
    /// `maxRedirects` (``URLRedirects``); a function rule runs on the thread that resolves the URL.
    public func addRedirectRule(_ rewrite: @escaping URLRedirects.Rewrite) {
        state.withLock { $0.redirects.add(rewrite) }
    }

    /// Calls `observer` with every event, synchronously, on the router's thread, in the order of
    /// the route's steps; a route it queues runs after the current one, before the outermost returns.
    public func observe(_ observer: @escaping @Sendable (RouterEvent) -> Void) {
        eventHub.observe(observer)
    }

    /// ``observe(_:)`` for an observer that says when it listens (a host, which has someone to
    /// hand events to only now and then): while nothing listens, the router builds no event.
    package func observe(
        whenListening isListening: @escaping @Sendable () -> Bool, _ observer: @escaping @Sendable (RouterEvent) -> Void
    ) {
        eventHub.observe(whenListening: isListening, observer)
    }

    /// A new stream of every event from now on; it ends when the caller stops iterating, or when
    /// the router's host replaces it (a reload: `PortolanHost.events()` follows every router). A
    /// reader more than `eventBufferLimit` events behind loses the oldest of them.
    public func events() -> AsyncStream<RouterEvent> {
        eventHub.stream()
    }

    /// Ends the streams of `events()`: a host that replaced this router with another says so to
    /// their readers, whose loops end instead of waiting for events that will never come.
    package func finishEventStreams() {
        eventHub.finishStreams()
    }

    // MARK: Routing

    /// What `route(to:)` would do now, decided without doing it: the interceptors' verdict (each
    /// redirect, or a denial and why), then the instructions with every node the route would leave
    /// asked whether it may be (`RoutePlan`). No handler, context task or observer runs, and the
    /// tree, history and queue stay as they are; interceptors see `request.isDryRun`.
    ///
    /// From an `async` handler or interceptor of this router's running route it fails at once as
    /// `invalid`: the plan runs on the router's thread, which waits for that handler.
    public func plan(to destination: Destination) async -> RoutePlan {
        if thread.isCurrent { return planNow(to: destination) }
        if Self.routingRouter == ObjectIdentifier(self) {
            return RoutePlan(requested: destination, result: .failure(Self.plannedFromInside))
        }
        return await thread.run { self.planNow(to: destination) }
    }

    /// Routes and returns when the route has run.
    ///
    /// From inside a handler or interceptor of this router, use `enqueue(to:)`: awaiting here would
    /// wait for the route that is waiting for the handler, so it fails at once as `invalid`.
    public func route(to destination: Destination) async -> RouteResult {
        await awaitResult(requested: destination, of: { enqueue(to: destination) })
    }

    /// Routes to where a URL leads (after the redirect rules), and returns when the route has run.
    public func route(url: String) async -> RouteResult {
        await awaitResult(url: url, of: { enqueue(url: url) })
    }

    private func awaitResult(
        requested: Destination = .path([]), url: String? = nil, of enqueue: () -> RouteTicket
    ) async -> RouteResult {
        if isCalledFromRunningRoute { return .failure(refuse(Self.awaitedFromInside, requested: requested, url: url)) }
        let ticket = enqueue()
        return await withTaskCancellationHandler {
            await ticket.result
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Runs a route now, on the router's thread, with every route queued meanwhile; for the owner
    /// of the thread (a host's unit of work). Returns this route's result.
    public func routeNow(to destination: Destination, step: RouteStep? = nil) -> RouteResult {
        runNow(RouteTicket(destination: destination, step: step, wakeup: wakeup))
    }

    /// `routeNow(to:)` for a URL.
    public func routeNow(url: String) -> RouteResult {
        switch resolve(url: url) {
        case .success(let resolution):
            return routeNow(resolved: resolution)
        case .failure(let failure):
            return .failure(refuse(failure, url: url))
        }
    }

    /// `routeNow(url:)` for a URL the caller resolved already (`resolve(url:)`), so that it is
    /// not redirected and matched twice.
    public func routeNow(resolved resolution: URLResolution, step: RouteStep? = nil) -> RouteResult {
        runNow(RouteTicket(destination: resolution.destination, url: resolution, step: step, wakeup: wakeup))
    }

    private func runNow(_ ticket: RouteTicket) -> RouteResult {
        guard thread.isCurrent else {
            return .failure(refuse(
                RouteFailure(.invalid, "routeNow must be called on the router's thread; await route(to:)"), requested: ticket.destination))
        }
        if isCalledFromRunningRoute { return .failure(refuse(Self.awaitedFromInside, requested: ticket.destination)) }
        if let full = state.withLock({ $0.routes.append(ticket) }) { return .failure(refuse(full, requested: ticket.destination)) }
        drainQueue()
        return ticket.outcome ?? .failure(RouteFailure(.invalid, "the route did not run"))
    }

    /// What `plan(to:)` answers, computed on the router's thread.
    public func planNow(to destination: Destination) -> RoutePlan {
        RouteDecision.plan(destination, url: nil, on: self)
    }

    /// `planNow(to:)` for a URL the caller resolved already (`resolve(url:)`): interceptors see
    /// its query and fragment, as a route's do.
    public func planNow(resolved resolution: URLResolution) -> RoutePlan {
        RouteDecision.plan(resolution.destination, url: resolution, on: self)
    }

    /// Whether the caller runs inside a handler or interceptor of this router's running route.
    private var isCalledFromRunningRoute: Bool {
        Self.routingRouter == ObjectIdentifier(self) || (thread.isCurrent && state.withLock { $0.routes.isDraining })
    }

    private static let awaitedFromInside = RouteFailure(
        .invalid, "a route was awaited from inside a handler or interceptor of the running route; use enqueue")

    private static let plannedFromInside = RouteFailure(
        .invalid, "a plan was awaited from an async handler or interceptor of the running route, which the router's thread waits for")

    /// Where `url` leads now, after the redirect rules: `invalid` when it is malformed,
    /// `unreachable` when no route pattern matches.
    public func resolve(url: String) -> Result<URLResolution, RouteFailure> {
        let (redirects, graph) = state.withLock { ($0.redirects, $0.tree.graph) }
        return Result { () throws(RouteFailure) in
            try graph.resolve(url: url, redirectedBy: redirects, maxRedirects: configuration.maxRedirects)
        }
    }

    /// Queues a route to where a URL leads. A URL that leads nowhere is refused at once
    /// (`refuse`): it never becomes a route, but its `failed` event and history record tell of it.
    @discardableResult
    public func enqueue(url: String) -> RouteTicket {
        switch resolve(url: url) {
        case .success(let resolution):
            return enqueue(resolved: resolution)
        case .failure(let failure):
            let ticket = RouteTicket(destination: .path([]))
            ticket.finish(.failure(refuse(failure, url: url)))
            return ticket
        }
    }

    /// `enqueue(url:)` for a URL the caller resolved already (`resolve(url:)`).
    @discardableResult
    public func enqueue(resolved resolution: URLResolution, step: RouteStep? = nil, origin: RouteOrigin = .app) -> RouteTicket {
        enqueue(RouteTicket(destination: resolution.destination, url: resolution, step: step, origin: origin, wakeup: wakeup))
    }

    /// Queues a route and returns at once; the route runs after those queued before it (inside a
    /// route: after the running one, before the outermost route returns).
    @discardableResult
    public func enqueue(to destination: Destination, step: RouteStep? = nil, origin: RouteOrigin = .app) -> RouteTicket {
        enqueue(RouteTicket(destination: destination, step: step, origin: origin, wakeup: wakeup))
    }

    private func enqueue(_ ticket: RouteTicket) -> RouteTicket {
        let policy = configuration.queuePolicy
        let (isDraining, refusal) = state.withLock { $0.routes.admit(ticket, policy: policy) }
        if let refusal {
            ticket.finish(.failure(refuse(refusal, requested: ticket.destination)))
            return ticket
        }
        // The running drain picks it up; otherwise a unit of its own serves it on the thread.
        if !isDraining {
            thread.submit { self.drainQueue() }
        }
        return ticket
    }

    /// Runs every queued route, in order, on the router's thread; a host calls it at the end of
    /// each unit of work so that a route queued outside any route runs before the unit ends.
    public func drainQueue() {
        guard thread.isCurrent else { return }
        guard state.withLock({ $0.routes.startDraining() }) else { return }
        while true {
            let (ticket, refusals) = nextTicket()
            for event in refusals { eventHub.emit(event) }
            guard let ticket else { return }
            ticket.finish(RouteRun.run(ticket, on: self))
        }
    }

    /// The next queued route, or nil after marking the queue idle, with the refusals from other
    /// threads to emit first (taken under the same lock, so none is left behind an idle queue).
    private func nextTicket() -> (RouteTicket?, [RouterEvent]) {
        state.withLock { state in
            defer { state.refusalsToEmit = [] }
            return (state.routes.next(), state.refusalsToEmit)
        }
    }

    /// The step that asked for the route running now, if one did.
    public var runningStep: RouteStep? {
        state.withLock { $0.routes.running }?.step
    }

    /// Who asked for the route running now, if one runs.
    public var runningOrigin: RouteOrigin? {
        state.withLock { $0.routes.running }?.origin
    }

    /// Whether the route running now was cancelled (by its ticket, or its awaiting task).
    public var isRunningRouteCancelled: Bool {
        state.withLock { $0.routes.running }?.isCancelled ?? false
    }

    // MARK: Refused requests

    /// Tells of a request refused before it became a route — a URL that leads nowhere, a
    /// duplicate, a full queue, a destination its asker could not express — as a route that
    /// failed: it enters the history, and `failed` goes out alone (no `will_route`: nothing ran),
    /// on the router's thread, at once when called there. Returns `failure` as recorded (its
    /// `stage` is `request`, its `url` the URL that led nowhere). `requested` is an empty path
    /// when there was no destination. From another thread while routes run (an async handler that
    /// awaits a route), the event waits for the router's thread to be free of the running route.
    @discardableResult
    public func refuse(_ failure: RouteFailure, requested: Destination = .path([]), url: String? = nil) -> RouteFailure {
        var failure = failure
        failure.stage = .request
        if let url { failure.url = url }
        let record = RouteRecord(requested: requested, settled: requested, executed: [], failure: failure)
        let event = RouterEvent.failed(requested, failure)
        let isCurrent = thread.isCurrent
        let drainEmits = state.withLock { state in
            state.history.append(record)
            guard !isCurrent, state.routes.isDraining else { return false }
            state.refusalsToEmit.append(event)
            return true
        }
        if isCurrent {
            eventHub.emit(event)
        } else if !drainEmits {
            thread.submit { self.eventHub.emit(event) }
        }
        return failure
    }

    // MARK: Back

    /// Goes back, and returns when the route has run: with no distance, leaves the top screen or
    /// returns a switch to its previous child (`BackNavigation`); with one, as far as it says
    /// (`BackDistance`), in one route. `unreachable` when there is nowhere to go.
    public func back(_ distance: BackDistance? = nil) async -> RouteResult {
        await thread.run { self.backNow(distance) }
    }

    /// Goes back now, on the router's thread (a host's unit of work), as a route.
    public func backNow(_ distance: BackDistance? = nil) -> RouteResult {
        distance.map { BackNavigation.route(on: self, $0) } ?? BackNavigation.route(on: self)
    }
}
