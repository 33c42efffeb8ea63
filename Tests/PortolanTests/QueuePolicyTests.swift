import Portolan
import TestSupport
import Testing

/// Requests that arrive during a route: first in first out, or the newest wins; duplicates dropped.
@Suite struct QueuePolicyTests {
    /// A router whose `node5` handler asks for more routes while the route to `node8` runs.
    private func router(_ policy: QueuePolicy, asking: [Destination], tickets: Locked<[RouteTicket]>) throws -> Router {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600), queuePolicy: policy))
        router.bind(NodeHandlers(enter: { [unowned router] _, _ in
            for destination in asking {
                let ticket = router.enqueue(to: destination)
                tickets.withLock { $0.append(ticket) }
            }
        }), to: "node5")
        return router
    }

    @Test func fifoRunsEveryRequestInOrder() async throws {
        let tickets = Locked<[RouteTicket]>([])
        let router = try router(.fifo, asking: [path("switchNode1", "node2"), path("switchNode1", "node1", "node6")], tickets: tickets)
        let first = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        #expect((try? first.get()) == [.enter("node5"), .enter("node8")])
        let queued = tickets.value
        guard queued.count == 2 else {
            Issue.record("two routes were asked for, saw \(queued.count)")
            return
        }
        #expect((try? await queued[0].result.get()) == [.leave("node8"), .leave("node5"), .switch("switchNode1", to: "node2")])
        #expect((try? await queued[1].result.get()) == [.switch("switchNode1", to: "node1"), .enter("node6")])
    }

    @Test func latestWinsCancelsTheQueuedAndTheRunningRoute() async throws {
        let tickets = Locked<[RouteTicket]>([])
        let router = try router(.latestWins, asking: [path("switchNode1", "node2"), path("switchNode1", "node1", "node6")], tickets: tickets)
        let first = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        // Cancelled between two instructions, and rolled back.
        #expect(first.failure?.kind == .cancelled)
        #expect(first.failure?.executed == [.enter("node5")])
        #expect(first.failure?.rolledBack == [.leave("node5")])
        let queued = tickets.value
        guard queued.count == 2 else {
            Issue.record("two routes were asked for, saw \(queued.count)")
            return
        }
        #expect(await queued[0].result.failure?.kind == .cancelled)
        #expect((try? await queued[1].result.get()) == [.enter("node6")])
        #expect(router.activePath.map(\.id) == ["switchNode1", "node1", "node6"])
    }

    @Test func aRequestForWhatRunsOrWasQueuedLastIsDropped() async throws {
        let tickets = Locked<[RouteTicket]>([])
        let running = path("switchNode1", "node1", "node5", "node8")
        let router = try router(
            .fifo, asking: [running, path("switchNode1", "node2"), path("switchNode1", "node2")], tickets: tickets)
        _ = await router.route(to: running)
        let queued = tickets.value
        guard queued.count == 3 else {
            Issue.record("three routes were asked for, saw \(queued.count)")
            return
        }
        #expect(await queued[0].result.failure?.kind == .duplicated)
        #expect((try? await queued[1].result.get()) != nil)
        #expect(await queued[2].result.failure?.kind == .duplicated)
    }
}
