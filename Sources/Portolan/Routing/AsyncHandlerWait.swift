/// How a route waits for a Swift object's `async` handler or interceptor (`Router.bind(_:to:)`,
/// `Router.addInterceptor(_:)`): it blocks the router's thread until the work ends, its time limit
/// passes or the route is cancelled, so the route stays one unit of work (`ThreadWait.run`).
struct AsyncHandlerWait {
    /// Unowned: the router owns its bindings, which hold this wait; a handler outliving it is never called.
    unowned let router: Router

    /// `run` for work that answers (a `canLeave`, a guard's or an interceptor's decision): the
    /// answer, or nil when the work ended without giving one.
    func answer<Answer: Sendable>(_ work: @escaping @Sendable () async throws -> Answer) throws -> Answer? {
        let answer = Locked<Answer?>(nil)
        try run { let value = try await work(); answer.withLock { $0 = value } }
        return answer.value
    }

    /// Runs `work` on the cooperative pool and waits for it; what it throws, or why the wait was cut
    /// (`HandlerTimeout`, `RouteStopped`, or a `HandlerError` when the work awaited its own router).
    func run(_ work: @escaping @Sendable () async throws -> Void) throws {
        let configuration = router.configuration
        let id = ObjectIdentifier(router)
        let result = ThreadWait.run(limit: configuration.handlerTimeout, wakeup: router.wakeup, stop: stopReason) {
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

    /// Why the wait should end early: the running route was cancelled.
    private func stopReason() -> WaitStop? {
        router.isRunningRouteCancelled ? .cancelled : nil
    }
}
