/// An interceptor as the router calls it: synchronously, on its thread (see `NodeHandlers`).
public struct InterceptorHandler: Sendable {
    // @unchecked: called only on the router's thread, one at a time.
    public let decide: @Sendable (RouteRequest) throws -> InterceptionDecision

    public init(_ decide: @escaping @Sendable (RouteRequest) throws -> InterceptionDecision) {
        self.decide = decide
    }
}

extension InterceptorHandler {
    /// An interceptor that calls a Swift object's `async` decision and waits for it.
    init(waitingFor interceptor: any RouteInterceptor, router: Router) {
        let wait = AsyncHandlerWait(router: router)
        self.init { request in try wait.answer { try await interceptor.intercept(request) } ?? .pass }
    }
}
