/// Running one route, inside the router's unit of work: interceptors, then the plan, then each
/// instruction's handler; every step is a direct call on the router's thread.
extension Router {
    func run(_ ticket: RouteTicket) -> RouteResult {
        emit(.willRoute(ticket.destination))
        var destination = ticket.destination
        var url = ticket.url
        let result = execute(ticket, finalDestination: &destination, url: &url)
        let record: RouteRecord
        switch result {
        case .success(let executed):
            record = RouteRecord(requested: ticket.destination, settled: destination, executed: executed, failure: nil)
        case .failure(let failure):
            record = RouteRecord(requested: ticket.destination, settled: destination, executed: failure.executed, failure: failure)
        }
        state.withLock { $0.history.append(record) }
        switch result {
        case .success(let executed): emit(.didRoute(destination, executed: executed))
        case .failure(let failure): emit(.failed(destination, failure))
        }
        return result
    }

    private func execute(
        _ ticket: RouteTicket, finalDestination destination: inout Destination, url: inout URLResolution?
    ) -> RouteResult {
        if ticket.isCancelled {
            return .failure(RouteFailure(.cancelled, "the route was cancelled before it started"))
        }
        // A modal flow's relative destination becomes a path from the root before anyone sees it.
        destination = tree.absolute(destination)
        switch intercepted(destination, url: ticket.url, step: ticket.step) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let settled):
            // A redirect goes somewhere the URL did not name: its query no longer applies.
            if settled != destination { url = nil }
            destination = settled
        }
        switch planNow(to: destination) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let plan):
            return perform(plan, toward: destination, url: url, ticket: ticket)
        }
    }

    private func perform(
        _ plan: [Instruction], toward destination: Destination, url: URLResolution?, ticket: RouteTicket
    ) -> RouteResult {
        var executed: [Instruction] = []
        var switchedAway: [(NodeID, Entry)] = []
        executed.reserveCapacity(plan.count)
        let (nodes, start) = state.withLock { ($0.nodes, $0.tree) }
        // The tree as the route starts, to undo it: a value shared until the route changes it.
        let restorePoint = configuration.rollsBack && !plan.isEmpty ? start : nil
        // A failure after some instructions ran is undone when the router rolls back.
        func failed(_ failure: RouteFailure) -> RouteResult {
            var failure = failure
            failure.executed = executed
            guard let restorePoint, !executed.isEmpty else { return .failure(failure) }
            return .failure(rollBack(failure, executed: executed, to: restorePoint, destination: destination))
        }
        for (index, instruction) in plan.enumerated() {
            if ticket.isCancelled {
                return failed(RouteFailure(.cancelled, "the route was cancelled", instruction: instruction))
            }
            if let handlers = nodes[instruction.handlingNode.id], handlers.handles(instruction) {
                let info = InstructionInfo(
                    instruction: instruction, destination: destination, url: url, index: index, count: plan.count,
                    animated: configuration.animatesEachStep ? true : nil, step: ticket.step)
                if let failure = Self.failure(of: { try handlers.run(instruction, info: info) }, at: instruction) {
                    return failed(failure)
                }
            }
            do {
                let left = try state.withLock { state throws(TreeUpdateError) in
                    let left = Self.childSwitchedAway(by: instruction, in: state.tree)
                    try state.tree.apply(instruction)
                    return left
                }
                if let left { switchedAway.append(left) }
            } catch {
                return failed(RouteFailure(.invalid, "the tree changed while the route ran: \(error)", instruction: instruction))
            }
            executed.append(instruction)
            emit(.instruction(instruction))
        }
        if let failure = runContextTasks(toward: destination, nodes: nodes) {
            return failed(failure)
        }
        if !switchedAway.isEmpty {
            state.withLock { state in
                for (switchNode, child) in switchedAway { state.recordSwitch(awayFrom: child, in: switchNode) }
            }
        }
        return .success(executed)
    }

    /// Calls the context task of every node on the destination, root first; the first failure.
    private func runContextTasks(toward destination: Destination, nodes: [NodeID: NodeHandlers]) -> RouteFailure? {
        let entries: [Entry]
        switch destination {
        case .path(let path): entries = path
        case .anywhere(let entry): entries = [entry]
        }
        for entry in entries {
            guard let task = nodes[entry.id]?.contextTask else { continue }
            do {
                try task(entry, destination)
            } catch {
                return RouteFailure(thrownBy: .contextTask(entry), error)
            }
        }
        return nil
    }

    /// How a handler's call failed, as the route reports it; nil when it succeeded.
    static func failure(of call: () throws -> Void, at instruction: Instruction) -> RouteFailure? {
        do {
            try call()
            return nil
        } catch {
            return RouteFailure(thrownBy: .handler(instruction), error)
        }
    }

    // MARK: Interceptors

    /// The destination the route settles on after every interceptor let it pass, or why not.
    private func intercepted(_ requested: Destination, url: URLResolution?, step: RouteStep?) -> Result<Destination, RouteFailure> {
        let interceptors = state.withLock { $0.interceptors }
        var destination = requested
        var chain = [requested]
        var index = 0
        while index < interceptors.count {
            let request = RouteRequest(
                destination: destination, from: activePath, url: chain.count == 1 ? url : nil, step: step)
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
            case .redirect(let target):
                chain.append(target)
                guard chain.count - 1 <= configuration.maxRedirects else {
                    let shown = chain.map { "'\($0)'" }.joined(separator: " → ")
                    return .failure(RouteFailure(
                        .invalid, "redirect loop: more than \(configuration.maxRedirects) redirects: \(shown)"))
                }
                emit(.redirected(from: destination, to: target))
                destination = target
                index = 0
            }
        }
        return .success(destination)
    }

    // MARK: Waiting for async Swift code

    /// Why a wait for async work should end early: the running route was cancelled.
    func stopReason() -> WaitStop? {
        isRunningRouteCancelled ? .cancelled : nil
    }

    /// Runs async Swift work from a handler call, blocking the route until it ends, within the limit.
    func waitFor(_ work: @escaping @Sendable () async throws -> Void) throws {
        let id = ObjectIdentifier(self)
        let result = ThreadWait.run(limit: configuration.handlerTimeout, wakeup: wakeup, stop: stopReason) {
            try await Router.$routingRouter.withValue(id) { try await work() }
        }
        switch result {
        case .success:
            return
        case .failure(.threw(let error)):
            throw error
        case .failure(.stopped(.timedOut)):
            throw HandlerTimeout("the handler did not finish within \(configuration.handlerTimeout)")
        case .failure(.stopped(let reason)):
            throw RouteStopped(reason)
        case .failure(.reentered):
            throw HandlerError(
                "an async Swift handler or interceptor awaited its own host or router, whose thread waits for it; "
                    + "queue a route with enqueue, or call the host after the handler returns")
        }
    }
}

/// Thrown by a handler whose wait was cut by a cancellation or an interrupt; the route fails as
/// `cancelled`.
public struct RouteStopped: Error, CustomStringConvertible, Sendable {
    public let message: String

    /// `location`: where the handler waited (`app.lua:12`), when known.
    public init(_ reason: WaitStop, at location: String? = nil) {
        let prefix = location.map { "\($0): " } ?? ""
        switch reason {
        case .cancelled: message = prefix + "the route was cancelled while a handler waited"
        case .interrupted: message = prefix + "interrupted while a handler waited"
        case .timedOut: message = prefix + "the handler's time ran out"
        }
    }

    public var description: String { message }
}

extension NodeHandlers {
    /// Handlers that call a Swift object's `async` methods and wait for them on the router's thread.
    init(waitingFor node: any Routable, router: Router) {
        self.init()
        // Unowned: the router owns its bindings; a handler outliving it is never called.
        if let enterable = node as? any Enterable {
            enter = { [unowned router] entry, info in try router.waitFor { try await enterable.enter(entry, info: info) } }
        }
        if let leavable = node as? any Leavable {
            leave = { [unowned router] entry, info in try router.waitFor { try await leavable.leave(entry, info: info) } }
            canLeave = { [unowned router] entry in
                let answer = Locked<Bool?>(nil)
                try router.waitFor { let value = try await leavable.canLeave(entry); answer.withLock { $0 = value } }
                return answer.value ?? true
            }
        }
        if let switchable = node as? any Switchable {
            switchTo = { [unowned router] child, info in try router.waitFor { try await switchable.switchTo(child, info: info) } }
        }
    }
}

extension InterceptorHandler {
    /// An interceptor that calls a Swift object's `async` decision and waits for it.
    init(waitingFor interceptor: any RouteInterceptor, router: Router) {
        self.init { [unowned router] request in
            let answer = Locked<InterceptionDecision?>(nil)
            try router.waitFor { let value = try await interceptor.intercept(request); answer.withLock { $0 = value } }
            return answer.value ?? .pass
        }
    }
}
