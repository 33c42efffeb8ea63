import Portolan
import TestSupport
import Testing

/// Issue 18, finding 7: what the engine keeps of a script's values is bounded by bytes as well as by
/// count — an event's text, a failure's message, the route queue and the history. One Swift
/// string is shared by every destination here, so the tests hold little while the bounds, which
/// count each destination's copy, see hundreds of megabytes.
@Suite struct HostBufferBoundsTests {
    private static let eightMiB = String(repeating: "x", count: 8 << 20)

    private static func detail(_ value: String, _ number: Int = 0) -> Destination {
        .path([Entry("switchNode1"), Entry("node1"), Entry("node5", context: ["blob": .string(value), "n": .integer(Int64(number))])])
    }

    @Test func anEventsTextCutsALongContextValueAndSaysHowMuch() {
        let text = RouterEvent.willRoute(Self.detail(Self.eightMiB)).description
        #expect(text.utf8.count < ContextValue.shownBytes + 200)
        #expect(text.contains("… (\((8 << 20) - ContextValue.shownBytes) bytes cut)"), "\(text.suffix(80))")
        #expect(text.hasSuffix(",n=0}"))
    }

    @Test func anEventsTextIsCutWhateverTheNumberOfContextKeys() {
        var context: Context = [:]
        for index in 0..<5_000 { context["key\(index)"] = .string(String(repeating: "v", count: 100)) }
        let text = RouterEvent.instruction(.enter(Entry("node5", context: context))).description
        #expect(text.utf8.count <= RouterEvent.textBytes + 40)
        #expect(text.hasSuffix(" bytes cut)"))
    }

    @Test func aCutNeverSplitsACharacter() {
        let text = String(repeating: "é", count: 10)   // two bytes each
        let long = String(repeating: "é", count: 100)
        #expect(Excerpt.cut(long, toBytes: 5) == "éé… (196 bytes cut)")
        #expect(Excerpt.split(text, atBytes: 5) == ("éé", 16))
        #expect(Excerpt.cut(text, toBytes: 0) == text, "within the slack, whole")
    }

    @Test func aFailureMessageIsCutWhereverItIsSet() {
        var failure = RouteFailure(.handlerFailed, String(repeating: "e", count: 10 << 20))
        #expect(failure.message.utf8.count < RouteFailure.messageBytes + 40)
        #expect(failure.message.hasSuffix("… (\((10 << 20) - RouteFailure.messageBytes) bytes cut)"))
        failure.message = Self.eightMiB
        #expect(failure.message.utf8.count < RouteFailure.messageBytes + 40)
        #expect(HandlerError(Self.eightMiB).message.utf8.count < RouteFailure.messageBytes + 40)
    }

    @Test func theHistoryKeepsTheNewestRoutesWithinItsBytes() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600), historyLimit: 100))
        for number in 1...20 {
            _ = await router.route(to: Self.detail(Self.eightMiB, number))
        }
        let history = router.history
        // Each record holds its destination twice (requested, settled) and its instructions: about
        // 16–24 MiB; 32 MiB of them is one or two routes, never the twenty asked for.
        #expect((1...2).contains(history.count), "\(history.count)")
        #expect(history.last?.requested == Self.detail(Self.eightMiB, 20))
        #expect(history.reduce(0) { $0 + $1.heldBytes } <= 48 << 20)
    }

    @Test func aHandlerThatQueuesPastTheLimitIsToldAtOnceAndTheRouterLives() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600), historyLimit: 0))
        let tickets = Locked<[RouteTicket]>([])
        router.bind(NodeHandlers(enter: { [unowned router] _, _ in
            for number in 1...5_000 {
                let ticket = router.enqueue(to: .path([Entry("switchNode1"), Entry("node2", context: ["n": .integer(Int64(number))])]))
                tickets.withLock { $0.append(ticket) }
            }
        }), to: "node5")
        let first = await router.route(to: path("switchNode1", "node1", "node5"))
        #expect(first.success != nil)
        let all = tickets.value
        try #require(all.count == 5_000)
        let refused = all.compactMap { $0.outcome?.failure }.filter { $0.message.contains("the route queue is full") }
        #expect(refused.count == 4_000)
        #expect(refused.first?.kind == .invalid)
        #expect(refused.first?.message.contains("1000 routes") == true, "\(refused.first?.message ?? "")")
        var ran = 0
        for ticket in all.prefix(1_000) where await ticket.result.success != nil { ran += 1 }
        #expect(ran == 1_000)
        #expect(await router.route(to: path("switchNode1", "node2")).success != nil)
    }

    @Test func theQueueRefusesARouteThatWouldHoldMoreThanItsBytes() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600), historyLimit: 0))
        let tickets = Locked<[RouteTicket]>([])
        router.bind(NodeHandlers(enter: { [unowned router] _, _ in
            for number in 1...20 {
                tickets.withLock { $0.append(router.enqueue(to: Self.detail(Self.eightMiB, number))) }
            }
        }), to: "node6")
        _ = await router.route(to: path("switchNode1", "node1", "node6"))
        let all = tickets.value
        try #require(all.count == 20)
        // Refusals are set as the handler queues; the accepted routes may still be running.
        let accepted = all.count - all.filter { $0.outcome?.failure?.message.contains("the route queue is full") == true }.count
        // 64 MiB of 8 MiB destinations: seven queue, the eighth would pass the limit.
        #expect(accepted == 7, "\(accepted)")
        let refusal = all.last?.outcome?.failure
        #expect(refusal?.kind == .invalid)
        #expect(refusal?.message.contains("past the limit of 67108864 (64 MiB)") == true, "\(refusal?.message ?? "")")
    }
}
