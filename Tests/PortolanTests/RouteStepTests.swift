import Portolan
import TestSupport
import Testing

/// A step travels with the route it asked for: interceptors, handlers and the router see it.
@Suite struct RouteStepTests {
    @Test func theStepReachesInterceptorsHandlersAndTheRunningRoute() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        let seen = Locked<[String]>([])
        router.addInterceptor(InterceptorHandler { request in
            seen.withLock { $0.append("request \(request.step?.description ?? "none")") }
            return .pass
        })
        router.bind(NodeHandlers(enter: { [unowned router] _, info in
            seen.withLock { $0.append("info \(info.step?.description ?? "none"), running \(router.runningStep?.name ?? "none")") }
        }), to: "node5")
        let step = RouteStep("movie_picked", payload: ["id": .integer(42)])
        let result = await router.enqueue(to: path("switchNode1", "node1", "node5"), step: step).result
        #expect((try? result.get()) == [.enter("node5")])
        _ = await router.route(to: path("switchNode1", "node2"))
        #expect(seen.value == [
            "request movie_picked {id=42}", "info movie_picked {id=42}, running movie_picked",
            "request none",
        ])
    }
}
