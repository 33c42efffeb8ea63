@testable import Portolan
import TestSupport
import Testing

/// Issue 35, §1: guards and flows are engine concepts, declared from Swift as well as from Lua. A
/// refusal by either is seen by `plan`, the events and the history, as any route's is.
@Suite struct SwiftGuardAndFlowTests {
    /// A sign-in wall on `node2`: every route to it or below it is sent to `node1 > node6`, until signed in.
    struct SignInWall: Guarded {
        let signedIn: Locked<Bool>
        func guardRoute(_ request: RouteRequest) async throws -> InterceptionDecision {
            signedIn.value ? .pass : .redirect(path("switchNode1", "node1", "node6"))
        }
    }

    static func observed(_ router: Router) -> Locked<[String]> {
        let events = Locked<[String]>([])
        router.observe { event in events.withLock { $0.append(event.textWithMessage) } }
        return events
    }

    @Test func aGuardFromNodeHandlersDeniesEveryRouteThroughItsNode() async throws {
        let router = Router(graph: try PortusTree.graph())
        let asked = Locked<[NodeID]>([])
        router.bind(NodeHandlers(guardRoute: { request in
            asked.withLock { $0.append(request.destination.entries(from: request.from).last?.id ?? "") }
            return request.isDryRun ? .deny("closed (planned)") : .deny("closed")
        }), to: "node5")
        let events = Self.observed(router)
        let plan = await router.plan(to: path("switchNode1", "node1", "node5", "node9"))
        #expect(plan.result.failure?.kind == .denied)
        #expect(plan.result.failure?.message == "closed (planned)")
        let result = await router.route(to: path("switchNode1", "node1", "node5", "node9"))
        #expect(result.failure?.kind == .denied)
        #expect(result.failure?.message == "closed")
        // A route that does not pass node5 never asks its guard.
        #expect(await router.route(to: path("switchNode1", "node1", "node6")).success != nil)
        #expect(asked.value == ["node9", "node9"])
        #expect(events.value.contains("failed denied switchNode1 > node1 > node5 > node9: denied: closed"), "\(events.value)")
        try #require(router.history.count == 2)
        #expect(router.history[0].failure?.kind == .denied)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node6"])
    }

    @Test func aGuardedObjectRedirectsAndItsErrorNamesItsNode() async throws {
        let router = Router(graph: try PortusTree.graph())
        let signedIn = Locked(false)
        router.bind(SignInWall(signedIn: signedIn), to: "node2")
        let plan = await router.plan(to: path("switchNode1", "node2", "node7"))
        #expect(plan.redirects == [path("switchNode1", "node1", "node6")])
        let result = await router.route(to: path("switchNode1", "node2", "node7"))
        #expect(result.success != nil)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node6"])
        try #require(router.history.count == 1)
        #expect(router.history[0].settled == path("switchNode1", "node1", "node6"))
        signedIn.withLock { $0 = true }
        #expect(await router.route(to: path("switchNode1", "node2", "node7")).success != nil)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node2", "node7"])

        struct Broken: Error, CustomStringConvertible { var description: String { "no session store" } }
        router.bind(NodeHandlers(guardRoute: { _ in throw Broken() }), to: "node6")
        let failed = await router.route(to: path("switchNode1", "node1", "node6"))
        #expect(failed.failure?.kind == .handlerFailed)
        #expect(failed.failure?.message == "the guard of 'node6' failed: no session store")
    }

    static func flows(on router: Router) {
        router.addFlow(Flow(name: "gate", steps: [], adapt: { step in
            step.name == "secret_wanted" ? .refuse : step.name == "old_name" ? .step(RouteStep("detail_wanted", payload: step.payload)) : .keep
        }) { _ in nil })
        router.addFlow(Flow(name: "catalog", steps: ["detail_wanted"]) { step in
            step.name == "detail_wanted" ? .destination(path("switchNode1", "node1", "node5", "node9")) : nil
        })
    }

    @Test func aFlowResolvesStepsAndItsRefusalsAreFailedRequests() async throws {
        let router = Router(graph: try PortusTree.graph())
        Self.flows(on: router)
        let events = Self.observed(router)
        let stepsSeen = Locked<[RouteStep?]>([])
        router.addInterceptor(InterceptorHandler { request in
            stepsSeen.withLock { $0.append(request.step) }
            return .pass
        })
        #expect(router.flows.map(\.name) == ["gate", "catalog"])
        #expect(router.flows[1].steps == ["detail_wanted"])

        let routed = await router.step(RouteStep("old_name", payload: ["id": .integer(42)]))
        #expect(routed.success != nil)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5", "node9"])
        // The step travels with the route as the flows adapted it.
        #expect(stepsSeen.value == [RouteStep("detail_wanted", payload: ["id": .integer(42)])])

        // A plan of a step asks the flows, then plans the route; it changes nothing.
        let planned = await router.plan(step: RouteStep("old_name"))
        #expect(planned.result.success?.isEmpty == true)
        #expect(await router.plan(step: RouteStep("secret_wanted")).result.failure?.kind == .denied)
        #expect(await router.plan(step: RouteStep("nobody_listens")).result.failure?.message == "no flow handles step 'nobody_listens'")
        #expect(stepsSeen.value.count == 2, "the plan's interceptors see the adapted step too")
        #expect(stepsSeen.value.last == RouteStep("detail_wanted", payload: [:]))
        try #require(router.history.count == 1)

        let refused = await router.step(RouteStep("secret_wanted"))
        #expect(refused.failure?.kind == .denied)
        #expect(refused.failure?.message == "flow 'gate' refused step 'secret_wanted'")
        let unhandled = await router.step(RouteStep("nobody_listens"))
        #expect(unhandled.failure?.kind == .unreachable)
        #expect(unhandled.failure?.message == "no flow handles step 'nobody_listens'")
        try #require(router.history.count == 3)
        #expect(router.history[1].failure?.stage == .request)
        #expect(router.history[2].failure?.kind == .unreachable)
        #expect(events.value.suffix(2) == [
            "failed denied (nothing): denied: flow 'gate' refused step 'secret_wanted'",
            "failed unreachable (nothing): unreachable: no flow handles step 'nobody_listens'",
        ], "\(events.value)")
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5", "node9"])
    }

    @Test func aFlowThatThrowsFailsTheStepNamingTheFlow() async throws {
        let router = Router(graph: try PortusTree.graph())
        struct Broken: Error, CustomStringConvertible { var description: String { "catalog offline" } }
        router.addFlow(Flow(name: "catalog", steps: ["detail_wanted"]) { _ in throw Broken() })
        let result = await router.step(RouteStep("detail_wanted"))
        #expect(result.failure?.kind == .handlerFailed)
        #expect(result.failure?.message == "flow 'catalog' failed: catalog offline")
        #expect(router.history.count == 1)
    }
}
