import Dispatch
import Portolan
import Synchronization
import Testing

/// The engine's rules of docs/concurrency.md, one test each (the host's are in
/// PortolanLuaTests/HostConcurrencyContractTests.swift).
@Suite struct ConcurrencyContractTests {
    /// A node whose `enter` runs `body` and keeps what it returns.
    final class Probe<Value: Sendable>: Enterable {
        let body: @Sendable () async -> Value
        let seen = Locked<[Value]>([])
        init(_ body: @escaping @Sendable () async -> Value) { self.body = body }
        func enter(_ entry: Entry, info: InstructionInfo) async throws {
            let value = await body()
            seen.withLock { $0.append(value) }
        }
    }

    private static func router(timeout: Duration = .seconds(600)) throws -> Router {
        Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: timeout))
    }

    /// Rule 2: units run first in first out; the FIFO ignores the priority of the task that
    /// queued them.
    @Test func theFIFOIgnoresPriority() async {
        let thread = SerialThread(name: "fifo")
        let gate = DispatchSemaphore(value: 0)
        let order = Locked<[String]>([])
        thread.submit { gate.wait() }   // the thread is busy while both are queued
        await Task(priority: .background) { thread.submit { order.withLock { $0.append("background") } } }.value
        await Task(priority: .high) { thread.submit { order.withLock { $0.append("high") } } }.value
        gate.signal()
        await thread.run {}
        #expect(order.value == ["background", "high"])
    }

    /// Rule 4: awaiting a plan from an async handler of the running route fails at once as
    /// `invalid`, as awaiting a route does; on a router with no time limit it waited forever.
    @Test func aPlanAwaitedFromInsideTheRouteFailsAtOnce() async throws {
        let router = try Self.router()
        let probe = Probe { [unowned router] in await router.plan(to: .path(["switchNode1", "node2"])) }
        router.bind(probe, to: "node5")
        let result = await router.route(to: .path(["switchNode1", "node1", "node5"]))
        #expect(result.success == [.enter("node5")])
        let plans = probe.seen.value
        try #require(plans.count == 1)
        #expect(plans[0].result.failure?.kind == .invalid, "\(plans[0])")
        #expect(plans[0].result.failure?.message.contains("plan was awaited") == true)
    }

    /// Rule 6: a host report from an app's thread changes the tree at once, and its event reaches
    /// the observers on the router's thread, never on the caller's. (Run it under
    /// `scripts/sanitize.sh thread`: it is clean.)
    @Test func aReportFromAnotherThreadIsDeliveredOnTheRoutersThread() async throws {
        let router = try Self.router()
        let onRouterThread = Locked<[Bool]>([])
        router.observe { [unowned router] event in
            guard case .hostReported = event else { return }
            onRouterThread.withLock { $0.append(router.thread.isCurrent) }
        }
        try await Task.detached { try router.didEnter(Entry("node5")) }.value
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node5"], "the tree changed at once")
        await router.thread.run {}   // the handed-over event runs before this
        #expect(onRouterThread.value == [true])
    }

    /// Rule 7: a wait sleeps until something ends it; it does not wake to look. Before, it looked
    /// every 5 ms (60 times in 0.3 s).
    @Test func aWaitSleepsUntilItsDeadlineWithoutPolling() async {
        let thread = SerialThread(name: "wait")
        let wakeup = Wakeup()
        let looks = await thread.run { () -> Int in
            var looks = 0
            _ = ThreadWait.sleep(until: .now + .milliseconds(300), wakeup: wakeup) {
                looks += 1
                return nil
            }
            return looks
        }
        #expect(looks <= 3, "\(looks) looks")
    }

    /// Rule 7: cancelling a route's ticket wakes its handler's wait at once (the wait has no time
    /// limit: without the post it would sleep forever).
    @Test func cancellingATicketWakesTheWait() async throws {
        let router = try Self.router()
        let entered = DispatchSemaphore(value: 0)
        let wakeup = router.wakeup
        router.bind(NodeHandlers(enter: { [unowned router] _, _ in
            entered.signal()
            let reason = ThreadWait.sleep(until: .now + .seconds(1_000_000), wakeup: wakeup) {
                router.isRunningRouteCancelled ? .cancelled : nil
            }
            if let reason { throw RouteStopped(reason) }
        }), to: "node5")
        let ticket = router.enqueue(to: .path(["switchNode1", "node1", "node5"]))
        await Task.detached { entered.wait() }.value
        ticket.cancel()
        let result = await ticket.result
        #expect(result.failure?.kind == .cancelled, "\(result)")
    }
}
