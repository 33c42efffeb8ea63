import Portolan
import TestSupport
import Testing

/// Transactional routes: a route that fails midway is undone, so the tree ends where it started.
@Suite struct TransactionalRouteTests {
    /// Handlers that log every call and fail where told to (synchronous, on the router's thread).
    final class Log: Sendable {
        let calls = Locked<[String]>([])
        let failing = Locked<Set<String>>([])

        func handlers(for id: NodeID) -> NodeHandlers {
            NodeHandlers(
                enter: { entry, info in try self.call("enter \(entry)", info) },
                leave: { entry, info in try self.call("leave \(entry)", info) },
                switchTo: { child, info in try self.call("switch \(id) -> \(child)", info) })
        }

        private func call(_ text: String, _ info: InstructionInfo) throws {
            calls.withLock { $0.append(text) }
            if failing.value.contains(text) { throw HandlerError("\(text) failed") }
        }
    }

    private func router(rollsBack: Bool = true, log: Log) throws -> Router {
        let router = Router(
            graph: try PortusTree.graph(anywhere: [.screen("alert")]),
            configuration: .init(handlerTimeout: .seconds(600), rollsBack: rollsBack))
        for id in ["switchNode1", "node1", "node2", "node5", "node6", "node7", "node8", "switchNode3", "node12"] {
            router.bind(log.handlers(for: id), to: id)
        }
        return router
    }

    @Test func aFailedRouteIsUndoneNewestFirstAndTheTreeIsWhereItStarted() async throws {
        let log = Log()
        let router = try router(log: log)
        _ = await router.route(to: path("switchNode1", "node2", "switchNode3", "node12"))
        let before = router.tree
        log.calls.withLock { $0 = [] }
        log.failing.withLock { $0 = ["enter node8"] }
        let result = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        guard case .failure(let failure) = result else {
            Issue.record("the route must fail")
            return
        }
        #expect(failure.kind == .handlerFailed)
        #expect(failure.executed == [.leave("switchNode3"), .switch("switchNode1", to: "node1"), .enter("node5")])
        #expect(failure.rolledBack == [.leave("node5"), .switch("switchNode1", to: "node2"), .enter("switchNode3")])
        #expect(failure.rollbackFailure == nil)
        // The undo runs the inverse instructions' handlers.
        #expect(log.calls.value == [
            "leave switchNode3", "switch switchNode1 -> node1", "enter node5", "enter node8",
            "leave node5", "switch switchNode1 -> node2", "enter switchNode3",
        ])
        // Exactly: switchNode3 comes back with node12 showing, not its initial child (node13).
        #expect(router.tree == before)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node2", "switchNode3", "node12"])
    }

    @Test func anUndoStepThatFailsStopsTheUndoAndTheTreeReflectsWhatRan() async throws {
        let log = Log()
        let router = try router(log: log)
        log.failing.withLock { $0 = ["enter node8", "leave node5"] }
        guard case .failure(let failure) = await router.route(to: path("switchNode1", "node1", "node5", "node8")) else {
            Issue.record("the route must fail")
            return
        }
        #expect(failure.executed == [.enter("node5")])
        #expect(failure.rolledBack.isEmpty)
        #expect(failure.rollbackFailure?.instruction == .leave("node5"))
        #expect(failure.rollbackFailure?.message == "leave node5 failed")
        #expect(failure.description.contains("the rollback failed: handler_failed at leave node5"))
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5"])
    }

    @Test func withoutRollbackTheTreeKeepsWhatRan() async throws {
        let log = Log()
        let router = try router(rollsBack: false, log: log)
        log.failing.withLock { $0 = ["enter node8"] }
        guard case .failure(let failure) = await router.route(to: path("switchNode1", "node1", "node5", "node8")) else {
            Issue.record("the route must fail")
            return
        }
        #expect(failure.rolledBack.isEmpty)
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5"])
    }

    @Test func undoStepsShowInTheEventStream() async throws {
        let log = Log()
        let router = try router(log: log)
        let events = Locked<[RouterEvent]>([])
        router.observe { event in events.withLock { $0.append(event) } }
        log.failing.withLock { $0 = ["enter node8"] }
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        let seen = events.value
        #expect(seen.contains(.rolledBack(.leave("node5"))))
        guard let last = seen.last, case .failed(_, let failure) = last else {
            Issue.record("the route must end with a failed event, saw \(seen)")
            return
        }
        #expect(failure.rolledBack == [.leave("node5")])
    }

    @Test func infoNumbersTheInstructionsAndAnimatesOnlyTheLast() async throws {
        let seen = Locked<[String]>([])
        for animatesEachStep in [false, true] {
            let router = Router(
                graph: try PortusTree.graph(),
                configuration: .init(handlerTimeout: .seconds(600), animatesEachStep: animatesEachStep))
            let handlers = NodeHandlers(enter: { entry, info in
                seen.withLock { $0.append("\(entry) \(info.index)/\(info.count) last=\(info.isLast) animated=\(info.animated)") }
            })
            for id in ["node5", "node8"] { router.bind(handlers, to: id) }
            _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        }
        #expect(seen.value == [
            "node5 0/2 last=false animated=false", "node8 1/2 last=true animated=true",
            "node5 0/2 last=false animated=true", "node8 1/2 last=true animated=true",
        ])
    }

    @Test func contextTasksRunForEveryNodeOnTheDestinationAndTheirFailureRollsBack() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        let seen = Locked<[String]>([])
        let failing = Locked(false)
        let task = NodeHandlers(contextTask: { entry, destination in
            seen.withLock { $0.append("\(entry) of \(destination)") }
            if failing.value { throw HandlerError("stale") }
        })
        for id in ["node1", "node5"] { router.bind(task, to: id) }
        _ = await router.route(to: path("switchNode1", "node1", "node5"))
        // Routing again to where it is: nothing is entered, the tasks still run.
        #expect((try? await router.route(to: path("switchNode1", "node1", "node5")).get()) == [])
        #expect(seen.value == [
            "node1 of switchNode1 > node1 > node5", "node5 of switchNode1 > node1 > node5",
            "node1 of switchNode1 > node1 > node5", "node5 of switchNode1 > node1 > node5",
        ])
        failing.withLock { $0 = true }
        let failure = await router.route(to: path("switchNode1", "node1", "node5", "node8")).failure
        #expect(failure?.kind == .handlerFailed)
        #expect(failure?.message == "the context task of 'node1' failed: stale")
        #expect(failure?.rolledBack == [.leave("node8")])
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5"])
    }

    @Test func aRedirectLoopFailsNamingTheChain() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600), maxRedirects: 2))
        router.addInterceptor(InterceptorHandler { request in
            request.goes(to: "node5") ? .redirect(path("switchNode1", "node1", "node6")) : .redirect(path("switchNode1", "node1", "node5"))
        })
        guard case .failure(let failure) = await router.route(to: path("switchNode1", "node1", "node5")) else {
            Issue.record("a loop must fail")
            return
        }
        #expect(failure.kind == .invalid)
        #expect(failure.redirectChain == .loop)
        #expect(failure.message == "redirect loop: 'switchNode1 > node1 > node5' → "
            + "'switchNode1 > node1 > node6' → 'switchNode1 > node1 > node5'")
    }
}
