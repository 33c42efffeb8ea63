@testable import Portolan
import TestSupport
import Testing

/// Issue 20, §3, on a bare router: a request refused before it became a route is a `failed`
/// event and a history record, from the router's thread or from another one.
@Suite struct RefusedRouteTests {
    @Test func aURLThatLeadsNowhereIsAFailedEventAndARecord() async throws {
        let router = Router(graph: try PortusTree.graph())
        let events = Locked<[String]>([])
        router.observe { event in events.withLock { $0.append(event.description) } }
        let result = await router.route(url: "/nowhere")
        #expect(result.failure?.kind == .unreachable)
        #expect(result.failure?.stage == .request)
        try #require(router.history.count == 1)
        #expect(router.history[0].failure?.url == "/nowhere")
        // Asked from the test's task, the event goes out on the router's thread.
        _ = await router.route(to: path("switchNode1", "node1"))
        #expect(events.value.first == "failed unreachable /nowhere", "\(events.value)")
    }

    /// An async handler that awaits a route is refused; the event waits for the running route
    /// instead of being queued on the thread the handler's wait blocks (which would fail the route).
    @Test func aRouteAwaitedFromAnAsyncHandlerIsToldOfAfterTheRunningRoute() async throws {
        let router = Router(graph: try PortusTree.graph())
        let events = Locked<[String]>([])
        router.observe { event in events.withLock { $0.append(event.description) } }
        struct Awaiter: Enterable {
            let router: Router
            func enter(_ entry: Entry, info: InstructionInfo) async throws {
                _ = await router.route(to: path("switchNode1", "node2"))
            }
        }
        router.bind(Awaiter(router: router), to: "node5")
        #expect(await router.route(to: path("switchNode1", "node1", "node5")).success == [.enter("node5")])
        #expect(events.value == [
            "will_route switchNode1 > node1 > node5", "enter node5", "did_route switchNode1 > node1 > node5",
            "failed invalid switchNode1 > node2",
        ])
        #expect(router.history.map { $0.failure?.kind } == [.invalid, nil])
    }
}
