import Portolan
import TestSupport
import Synchronization
import Testing

/// A node whose handlers record what they were asked and can be told to fail, hang or route.
final class ScriptedNode: Enterable, Leavable, Switchable {
    enum Behaviour: Sendable {
        case succeed
        case fail(String)
        case hang
        case sleep(Duration)
    }

    let behaviour: Behaviour
    let allowLeave: Bool
    let log: Mutex<[String]> = Mutex([])

    init(_ behaviour: Behaviour = .succeed, allowLeave: Bool = true) {
        self.behaviour = behaviour
        self.allowLeave = allowLeave
    }

    var calls: [String] { log.withLock { $0 } }

    func canLeave(_ entry: Entry) async throws -> Bool { allowLeave }

    func enter(_ entry: Entry, info: InstructionInfo) async throws { try await act("enter \(entry)") }
    func leave(_ entry: Entry, info: InstructionInfo) async throws { try await act("leave \(entry)") }
    func switchTo(_ child: Entry, info: InstructionInfo) async throws { try await act("switch \(child)") }

    private func act(_ call: String) async throws {
        log.withLock { $0.append(call) }
        switch behaviour {
        case .succeed:
            return
        case .fail(let message):
            throw HandlerError(message)
        case .hang:
            await neverFinish()
        case .sleep(let duration):
            try await Task.sleep(for: duration)
        }
    }
}

@Suite struct RouterTests {
    /// A router whose handler limit holds on a loaded machine: async Swift handlers run on the
    /// cooperative pool, which CPU-bound tests running alongside can hold for seconds.
    private func router(timeout: Duration = .seconds(120)) throws -> Router {
        Router(graph: try PortusTree.graph(anywhere: [.screen("alert")]), configuration: .init(handlerTimeout: timeout))
    }

    @Test func handlersRunForTheirInstructions() async throws {
        let router = try router()
        let tabs = ScriptedNode(), node5 = ScriptedNode()
        router.bind(tabs, to: "switchNode1")
        router.bind(node5, to: "node5")
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        _ = await router.route(to: path("switchNode1", "node2"))
        #expect(node5.calls == ["enter node5", "leave node5"])
        #expect(tabs.calls == ["switch node2"])
    }

    @Test func withoutRollbackAFailingHandlerStopsTheRouteAndTheTreeKeepsWhatRan() async throws {
        let router = Router(
            graph: try PortusTree.graph(anywhere: [.screen("alert")]),
            configuration: .init(handlerTimeout: .seconds(120), rollsBack: false))
        router.bind(ScriptedNode(.fail("no network")), to: "node8")
        let failure = await router.route(to: path("switchNode1", "node1", "node5", "node8")).failure
        #expect(failure?.kind == .handlerFailed)
        #expect(failure?.message == "no network")
        #expect(failure?.instruction == .enter("node8"))
        #expect(failure?.executed == [.enter("node5")])
        #expect(router.activePath == ["switchNode1", "node1", "node5"])
    }

    @Test func aHandlerThatNeverFinishesTimesOut() async throws {
        let router = try router(timeout: .milliseconds(100))
        router.bind(ScriptedNode(.hang), to: "node6")
        let failure = await router.route(to: path("switchNode1", "node1", "node6", "node11")).failure
        #expect(failure?.kind == .timeout)
        #expect(failure?.instruction == .enter("node6"))
        #expect(router.activePath == ["switchNode1", "node1"])
        // The router lives on.
        #expect(await router.route(to: path("switchNode1", "node2")).success == [.switch("switchNode1", to: "node2")])
    }

    @Test func aVetoIsBlockedBeforeAnyHandlerRuns() async throws {
        let router = try router()
        let node5 = ScriptedNode(allowLeave: false), node8 = ScriptedNode()
        router.bind(node5, to: "node5")
        router.bind(node8, to: "node8")
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        let failure = await router.route(to: path("switchNode1", "node2")).failure
        #expect(failure?.kind == .blocked)
        #expect(failure?.instruction == .leave("node5"))
        #expect(node8.calls == ["enter node8"], "node8 must not be left when the route is blocked")
    }

    @Test func anInterceptorCanDeny() async throws {
        let router = try router()
        router.addInterceptor(ClosureInterceptor { request in
            request.goes(to: "node2") ? .deny("node2 needs a login") : .pass
        })
        let failure = await router.route(to: path("switchNode1", "node2")).failure
        #expect(failure?.kind == .denied)
        #expect(failure?.message == "node2 needs a login")
        #expect(router.activePath == ["switchNode1", "node1"])
    }

    @Test func anInterceptorCanRedirect() async throws {
        let router = try router()
        router.addInterceptor(ClosureInterceptor { request in
            request.goes(to: "node2") ? .redirect(path("switchNode1", "switchNode2", "node4")) : .pass
        })
        let result = await router.route(to: path("switchNode1", "node2", "node7"))
        #expect(texts(try result.get()) == ["switch switchNode1 -> switchNode2", "switch switchNode2 -> node4"])
    }

    @Test func aRedirectLoopIsCut() async throws {
        let router = try router()
        router.addInterceptor(ClosureInterceptor { request in
            request.goes(to: "node2") ? .redirect(path("switchNode1", "node1")) : .redirect(path("switchNode1", "node2"))
        })
        let failure = await router.route(to: path("switchNode1", "node2")).failure
        #expect(failure?.kind == .invalid)
        #expect(failure?.redirectChain == .loop)
        #expect(failure?.message == "redirect loop: 'switchNode1 > node2' → 'switchNode1 > node1' → 'switchNode1 > node2'")
    }

    @Test func aThrowingInterceptorFailsTheRouteOnly() async throws {
        let router = try router()
        router.addInterceptor(ClosureInterceptor { request in
            if request.goes(to: "node7") { throw HandlerError("interceptor broke") }
            return .pass
        })
        #expect(await router.route(to: path("switchNode1", "node2", "node7")).failure?.kind == .handlerFailed)
        #expect(await router.route(to: path("switchNode1", "node1", "node5")).success == [.enter("node5")])
    }

    @Test func aHangingInterceptorTimesOutAndTheRouterLivesOn() async throws {
        let router = try router(timeout: .milliseconds(100))
        router.addInterceptor(ClosureInterceptor { _ in
            await neverFinish()
            return .pass
        })
        #expect(await router.route(to: path("switchNode1", "node2")).failure?.kind == .timeout)
        #expect(router.activePath == ["switchNode1", "node1"])
        // The router's thread still serves; a plan asks the interceptor too, and says what the route met.
        #expect(await router.plan(to: path("switchNode1", "node2")).result.failure?.kind == .timeout)
        #expect(router.activePath == ["switchNode1", "node1"])
    }

    @Test func aCancelledQueuedRouteNeverRuns() async throws {
        let router = try router()
        router.bind(ScriptedNode(.sleep(.milliseconds(100))), to: "node5")
        let first = router.enqueue(to: path("switchNode1", "node1", "node5"))
        let second = router.enqueue(to: path("switchNode1", "node2"))
        second.cancel()
        #expect(await first.result.success == [.enter("node5")])
        #expect(await second.result.failure?.kind == .cancelled)
        #expect(router.activePath == ["switchNode1", "node1", "node5"])
    }

    @Test func requestsRunFirstInFirstOut() async throws {
        let router = try router()
        router.bind(ScriptedNode(.sleep(.milliseconds(30))), to: "node5")
        let tickets = [
            router.enqueue(to: path("switchNode1", "node1", "node5")),
            router.enqueue(to: path("switchNode1", "node2")),
            router.enqueue(to: path("switchNode1", "switchNode2", "node4")),
        ]
        var outcomes: [[String]] = []
        for ticket in tickets { outcomes.append(texts(try await ticket.result.get())) }
        #expect(outcomes == [
            ["enter node5"],
            ["leave node5", "switch switchNode1 -> node2"],
            ["switch switchNode1 -> switchNode2", "switch switchNode2 -> node4"],
        ])
    }

    @Test func aRouteAskedForInsideAHandlerIsQueuedNotNested() async throws {
        let router = try router()
        let asked = Locked<RouteTicket?>(nil)
        struct Requester: Enterable {
            let router: Router
            let asked: Locked<RouteTicket?>
            func enter(_ entry: Entry, info: InstructionInfo) async throws {
                let ticket = router.enqueue(to: path("switchNode1", "node2"))
                asked.withLock { $0 = ticket }
                // The queued route has not run yet: we are still inside this one.
                #expect(router.activePath == ["switchNode1", "node1"])
            }
        }
        router.bind(Requester(router: router, asked: asked), to: "node5")
        let outer = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        #expect(texts(try outer.get()) == ["enter node5", "enter node8"])
        let inner = try #require(asked.value)
        #expect(texts(try await inner.result.get()) == ["leave node8", "leave node5", "switch switchNode1 -> node2"])
    }

    @Test func awaitingARouteInsideAHandlerFailsInsteadOfDeadlocking() async throws {
        let router = try router()
        let inner = Locked<RouteResult?>(nil)
        struct Awaiter: Enterable {
            let router: Router
            let inner: Locked<RouteResult?>
            func enter(_ entry: Entry, info: InstructionInfo) async throws {
                let result = await router.route(to: path("switchNode1", "node2"))
                inner.withLock { $0 = result }
            }
        }
        router.bind(Awaiter(router: router, inner: inner), to: "node5")
        #expect(await router.route(to: path("switchNode1", "node1", "node5")).success == [.enter("node5")])
        #expect(inner.value?.failure?.kind == .invalid)
    }

    @Test func eventsComeInOrder() async throws {
        let router = try router()
        let stream = router.events()
        router.bind(ScriptedNode(.fail("boom")), to: "node8")
        _ = await router.route(to: path("switchNode1", "node1", "node5"))
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        try router.didLeave("node5")
        var events: [RouterEvent] = []
        for await event in stream {
            events.append(event)
            if events.count == 6 { break }
        }
        let failure = RouteFailure(.handlerFailed, "boom", instruction: .enter("node8"), executed: [])
        #expect(events == [
            .willRoute(path("switchNode1", "node1", "node5")),
            .instruction(.enter("node5")),
            .didRoute(path("switchNode1", "node1", "node5"), executed: [.enter("node5")]),
            .willRoute(path("switchNode1", "node1", "node5", "node8")),
            .failed(path("switchNode1", "node1", "node5", "node8"), failure),
            .hostReported(.leave("node5")),
        ])
    }

    @Test func hostReportsAreValidated() async throws {
        let router = try router()
        #expect(throws: TreeUpdateError.self) { try router.didEnter("node11") }
        try router.didEnter("node6")
        try router.didSwitch("switchNode1", to: "node2")
        #expect(router.activePath == ["switchNode1", "node2"])
    }

    @Test func dynamicDestinationIsEnteredOnTopOnce() async throws {
        let router = try router()
        _ = await router.route(to: path("switchNode1", "node1", "node5"))
        #expect(await router.route(to: .anywhere("alert")).success == [.enter("alert")])
        #expect(await router.route(to: .anywhere("alert")).success == [])
        #expect(router.activePath == ["switchNode1", "node1", "node5", "alert"])
    }
}
