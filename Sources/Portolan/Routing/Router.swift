import Synchronization

/// Runs routes on a live tree, one at a time, calling the handlers of the nodes on the way.
///
/// Requests are served first-in first-out. A route asked for while another runs (from a handler,
/// an interceptor or anywhere else) waits in the queue; it is never nested inside the running one.
///
/// The router is Sendable and every method but `route` and `plan` is synchronous, so a host that
/// must answer at once (a Lua function, a UI callback) can bind nodes, read the tree, report
/// changes and queue routes without awaiting. Handlers are called without the lock held.
public final class Router: Sendable {
    public let configuration: RouterConfiguration
    private let state: Mutex<RouterState>

    /// The router whose queue the current task is draining, so that a handler awaiting
    /// `route(to:)` on it is told at once instead of waiting for itself forever.
    @TaskLocal private static var drainingRouter: ObjectIdentifier?

    public init(tree: RoutingTree, configuration: RouterConfiguration = .init()) {
        self.configuration = configuration
        self.state = Mutex(RouterState(tree: tree))
    }

    public convenience init(graph: NavigationGraph, configuration: RouterConfiguration = .init()) {
        self.init(tree: RoutingTree(graph: graph), configuration: configuration)
    }

    public var tree: RoutingTree { state.withLock { $0.tree } }

    public var activePath: [Entry] { tree.activePath }

    // MARK: Setting up

    /// Binds the object that handles the node `id`; it replaces any earlier binding.
    public func bind(_ node: any Routable, to id: NodeID) {
        state.withLock { $0.nodes[id] = node }
    }

    public func unbind(_ id: NodeID) {
        state.withLock { $0.nodes[id] = nil }
    }

    public func addInterceptor(_ interceptor: any RouteInterceptor) {
        state.withLock { $0.interceptors.append(interceptor) }
    }

    /// Adds a rule that rewrites URLs before they are matched (`/old/:id` → `/books/:id`).
    public func addRedirectRule(from pattern: String, to template: String) throws(URLRoutingError) {
        try state.withLock { state throws(URLRoutingError) in try state.redirects.add(from: pattern, to: template) }
    }

    /// Calls `observer` with every event, synchronously, on the thread that caused it; for hosts
    /// that must see events in step with the routes (an AsyncStream consumer runs later).
    public func observe(_ observer: @escaping @Sendable (RouterEvent) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// A new stream of every event from now on; it ends when the caller stops iterating.
    public func events() -> AsyncStream<RouterEvent> {
        let (stream, continuation) = AsyncStream<RouterEvent>.makeStream()
        let id = state.withLock { state in
            defer { state.nextSubscriberID += 1 }
            state.subscribers[state.nextSubscriberID] = continuation
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: Routing

    /// What `route(to:)` would execute now, without running anything: the plan, with every node it
    /// would leave asked whether it may be. Interceptors are not asked.
    public func plan(to destination: Destination) async -> RouteResult {
        let (tree, nodes) = state.withLock { ($0.tree, $0.nodes) }
        let plan: [Instruction]
        do {
            plan = try Planner.plan(from: tree, to: destination)
        } catch {
            return .failure(error)
        }
        if let veto = await firstVeto(in: plan, nodes: nodes) {
            return .failure(veto)
        }
        return .success(plan)
    }

    /// Routes and returns when the route has run.
    ///
    /// From inside a handler or interceptor of this router, use `enqueue(to:)`: awaiting here would
    /// wait for the route that is waiting for the handler, so it fails at once as `invalid`.
    public func route(to destination: Destination) async -> RouteResult {
        if isCalledFromRunningRoute { return .failure(Self.awaitedFromInside) }
        return await enqueue(to: destination).result
    }

    /// Routes to where a URL leads (after the redirect rules), and returns when the route has run.
    public func route(url: String) async -> RouteResult {
        if isCalledFromRunningRoute { return .failure(Self.awaitedFromInside) }
        return await enqueue(url: url).result
    }

    /// Whether the caller runs inside a handler or interceptor of this router's running route.
    private var isCalledFromRunningRoute: Bool {
        Self.drainingRouter == ObjectIdentifier(self)
    }

    private static let awaitedFromInside = RouteFailure(
        .invalid, "a route was awaited from inside a handler or interceptor of the running route; use enqueue")

    /// Where `url` leads now, after the redirect rules: `invalid` when it is malformed,
    /// `unreachable` when no route pattern matches.
    public func resolve(url: String) -> Result<URLResolution, RouteFailure> {
        let (redirects, graph) = state.withLock { ($0.redirects, $0.tree.graph) }
        return Result { () throws(RouteFailure) in
            try graph.resolve(url: try redirects.apply(to: url, limit: configuration.maxRedirects))
        }
    }

    /// Queues a route to where a URL leads. A URL that leads nowhere fails at once, without
    /// becoming a route (no events).
    @discardableResult
    public func enqueue(url: String) -> RouteTicket {
        switch resolve(url: url) {
        case .success(let resolution):
            return enqueue(RouteTicket(destination: resolution.destination, url: resolution))
        case .failure(let failure):
            let ticket = RouteTicket(destination: .path([]))
            ticket.finish(.failure(failure))
            return ticket
        }
    }

    /// Queues a route and returns at once; the route runs after those queued before it.
    @discardableResult
    public func enqueue(to destination: Destination) -> RouteTicket {
        enqueue(RouteTicket(destination: destination))
    }

    private func enqueue(_ ticket: RouteTicket) -> RouteTicket {
        let startsDraining = state.withLock { state in
            state.queue.append(ticket)
            defer { state.isDraining = true }
            return !state.isDraining
        }
        if startsDraining {
            Task { await drain() }
        }
        return ticket
    }

    // MARK: Host reports

    /// The host entered a node on top of the active leaf by itself.
    public func didEnter(_ entry: Entry) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didEnter(entry) }
    }

    /// The host left the deepest active node with this id by itself.
    public func didLeave(_ id: NodeID) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didLeave(id) }
    }

    /// The host switched a switch node on the active path to another child by itself.
    public func didSwitch(_ switchID: NodeID, to child: NodeID) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didSwitch(switchID, to: child) }
    }

    private func report(_ change: (inout RoutingTree) throws(TreeUpdateError) -> Instruction) throws(TreeUpdateError) {
        let instruction = try state.withLock { state throws(TreeUpdateError) in try change(&state.tree) }
        emit(.hostReported(instruction))
    }

    // MARK: Running the queue

    private func drain() async {
        await Self.$drainingRouter.withValue(ObjectIdentifier(self)) {
            while let ticket = nextTicket() {
                ticket.finish(await run(ticket))
            }
        }
    }

    /// The next queued route, or nil after marking the queue idle (in the same critical section, so
    /// a route queued meanwhile starts a new drain).
    private func nextTicket() -> RouteTicket? {
        state.withLock { state in
            if let ticket = state.queue.popFirst() { return ticket }
            state.isDraining = false
            return nil
        }
    }

    private func run(_ ticket: RouteTicket) async -> RouteResult {
        emit(.willRoute(ticket.destination))
        var destination = ticket.destination
        var url = ticket.url
        let result = await execute(ticket, finalDestination: &destination, url: &url)
        switch result {
        case .success(let executed):
            emit(.didRoute(destination, executed: executed))
        case .failure(let failure):
            emit(.failed(destination, failure))
        }
        return result
    }

    private func execute(
        _ ticket: RouteTicket, finalDestination destination: inout Destination, url: inout URLResolution?
    ) async -> RouteResult {
        if ticket.isCancelled {
            return .failure(RouteFailure(.cancelled, "the route was cancelled before it started"))
        }
        switch await intercepted(ticket.destination, url: ticket.url) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let settled):
            // A redirect goes somewhere the URL did not name: its query no longer applies.
            if settled != destination { url = nil }
            destination = settled
        }
        switch await plan(to: destination) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let plan):
            return await perform(plan, toward: destination, url: url, ticket: ticket)
        }
    }

    private func perform(
        _ plan: [Instruction], toward destination: Destination, url: URLResolution?, ticket: RouteTicket
    ) async -> RouteResult {
        var executed: [Instruction] = []
        for instruction in plan {
            if ticket.isCancelled {
                return .failure(RouteFailure(.cancelled, "the route was cancelled", instruction: instruction, executed: executed))
            }
            let info = InstructionInfo(instruction: instruction, destination: destination, url: url)
            if var failure = await runHandler(of: instruction, info: info) {
                failure.executed = executed
                return .failure(failure)
            }
            do {
                try state.withLock { state throws(TreeUpdateError) in try state.tree.apply(instruction) }
            } catch {
                return .failure(RouteFailure(
                    .invalid, "the tree changed while the route ran: \(error)", instruction: instruction, executed: executed))
            }
            executed.append(instruction)
            emit(.instruction(instruction))
        }
        return .success(executed)
    }

    // MARK: Interceptors

    /// The destination the route settles on after every interceptor let it pass, or why not.
    private func intercepted(_ requested: Destination, url: URLResolution?) async -> Result<Destination, RouteFailure> {
        let interceptors = state.withLock { $0.interceptors }
        var destination = requested
        var redirects = 0
        var index = 0
        while index < interceptors.count {
            let request = RouteRequest(destination: destination, from: activePath, url: redirects == 0 ? url : nil)
            switch await decision(of: interceptors[index], on: request) {
            case .failure(let failure):
                return .failure(failure)
            case .success(.pass):
                index += 1
            case .success(.deny(let reason)):
                return .failure(RouteFailure(.denied, reason))
            case .success(.redirect(let target)):
                redirects += 1
                guard redirects <= configuration.maxRedirects else {
                    return .failure(RouteFailure(
                        .invalid, "more than \(configuration.maxRedirects) redirects; last to '\(target)'"))
                }
                destination = target
                index = 0
            }
        }
        return .success(destination)
    }

    private func decision(of interceptor: any RouteInterceptor, on request: RouteRequest) async -> Result<InterceptionDecision, RouteFailure> {
        let outcome = DecisionBox()
        let decide: @Sendable () async throws -> Void = { outcome.set(try await interceptor.intercept(request)) }
        let timed = interceptor is any KeepsOwnTimeLimit
            ? await runDirectly(decide) : await runWithTimeLimit(configuration.handlerTimeout, decide)
        switch timed {
        case .finished:
            return .success(outcome.value ?? .pass)
        case .failed(let message):
            return .failure(RouteFailure(.handlerFailed, "an interceptor failed: \(message)"))
        case .timedOut:
            return .failure(RouteFailure(.timeout, "an interceptor did not decide within \(timeLimitText)"))
        }
    }

    // MARK: Handlers

    /// Asks every node the plan leaves whether it may be left, in plan order; the first refusal.
    private func firstVeto(in plan: [Instruction], nodes: [NodeID: any Routable]) async -> RouteFailure? {
        for case .leave(let entry) in plan {
            guard let leavable = nodes[entry.id] as? any Leavable else { continue }
            do {
                if try await !leavable.canLeave(entry) { return .blocked(entry) }
            } catch {
                return .vetoFailed(entry, error)
            }
        }
        return nil
    }

    /// Runs the handler of the node that executes `instruction`; nil when it succeeded or there is none.
    private func runHandler(of instruction: Instruction, info: InstructionInfo) async -> RouteFailure? {
        let node = state.withLock { $0.nodes[instruction.handlingNode.id] }
        guard let handler = Self.handler(of: node, for: instruction, info: info) else { return nil }
        let outcome = node is any KeepsOwnTimeLimit
            ? await runDirectly(handler) : await runWithTimeLimit(configuration.handlerTimeout, handler)
        switch outcome {
        case .finished:
            return nil
        case .failed(let message):
            return RouteFailure(.handlerFailed, message, instruction: instruction)
        case .timedOut:
            return RouteFailure(.timeout, "the handler did not finish within \(timeLimitText)", instruction: instruction)
        }
    }

    private static func handler(
        of node: (any Routable)?, for instruction: Instruction, info: InstructionInfo
    ) -> (@Sendable () async throws -> Void)? {
        switch instruction {
        case .enter(let entry):
            guard let enterable = node as? any Enterable else { return nil }
            return { try await enterable.enter(entry, info: info) }
        case .leave(let entry):
            guard let leavable = node as? any Leavable else { return nil }
            return { try await leavable.leave(entry, info: info) }
        case .switch(_, let child):
            guard let switchable = node as? any Switchable else { return nil }
            return { try await switchable.switchTo(child, info: info) }
        }
    }

    // MARK: Events

    private func emit(_ event: RouterEvent) {
        let (observers, subscribers) = state.withLock { ($0.observers, Array($0.subscribers.values)) }
        for observer in observers {
            observer(event)
        }
        for subscriber in subscribers {
            subscriber.yield(event)
        }
    }

    private var timeLimitText: String {
        configuration.handlerTimeout.map { "\($0)" } ?? "forever"
    }
}

/// Everything the router changes, behind its lock.
private struct RouterState {
    var tree: RoutingTree
    var nodes: [NodeID: any Routable] = [:]
    var interceptors: [any RouteInterceptor] = []
    var redirects = URLRedirects()
    var observers: [@Sendable (RouterEvent) -> Void] = []
    var queue = RouteQueue()
    var isDraining = false
    var subscribers: [Int: AsyncStream<RouterEvent>.Continuation] = [:]
    var nextSubscriberID = 0
}
