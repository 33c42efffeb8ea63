import Foundation
@testable import PortolanInspector
import PortolanTools
import Synchronization
import Testing

/// What `portolan repl --inspect` does across two processes, in one: a real REPL session on the
/// built-in demo app, whose updates are folded into the page's state (`InspectorSnapshot`, the
/// REPL's side) and published to the feed (the inspector process's side).
private final class FeedingObserver: ReplObserver {
    let feed: InspectorFeed
    private let snapshot = Mutex(InspectorSnapshot())

    init(_ feed: InspectorFeed) {
        self.feed = feed
    }

    func replDidUpdate(_ update: ReplUpdate) {
        feed.publish(snapshot.withLock { snapshot in
            snapshot.apply(update)
            return snapshot.json
        })
    }
}

@Suite struct InspectorFeedTests {
    private struct State: Decodable {
        struct Route: Decodable {
            var requested: String?
            var instructions: [String]
            var failure: String?
        }

        var sequence: Int
        var svg: String
        var activePath: [String]
        var events: [String]
        var firstEventNumber: Int
        var lastRoute: Route?
    }

    private func decode(_ message: String) throws -> State {
        try JSONDecoder().decode(State.self, from: Data(message.utf8))
    }

    private func session(feeding feed: InspectorFeed) async throws -> ReplSession {
        let session = try await ReplSession.start(appFile: nil, output: { _ in })
        await session.addObserver(FeedingObserver(feed))
        return session
    }

    @Test func aRouteShowsItsEventsInTheirCanonicalTextAndTheNewTree() async throws {
        let feed = InspectorFeed()
        let session = try await session(feeding: feed)
        let before = try decode(feed.currentMessage)
        #expect(before.activePath == ["root", "onboarding"])
        await session.handle("/settings")
        let after = try decode(feed.currentMessage)
        #expect(after.sequence > before.sequence)
        #expect(after.activePath == ["root", "onboarding", "settings"])
        #expect(after.events == ["will_route anywhere settings", "enter settings", "did_route anywhere settings"])
        #expect(after.lastRoute?.instructions == ["enter settings"])
        #expect(after.svg.hasPrefix("<svg "), "inline SVG, without the XML declaration")
        #expect(after.svg.contains("data-id=\"settings\""))
    }

    @Test func aLineThatChangesNothingSendsNothing() async throws {
        let feed = InspectorFeed()
        let session = try await session(feeding: feed)
        let before = try decode(feed.currentMessage).sequence
        await session.handle("x = 1")
        await session.handle(":tree")
        #expect(try decode(feed.currentMessage).sequence == before)
    }

    @Test func aFailedRouteShowsItsFailure() async throws {
        let feed = InspectorFeed()
        let session = try await session(feeding: feed)
        await session.handle("portolan.route { 'root', 'nowhere' }")
        let state = try decode(feed.currentMessage)
        #expect(state.lastRoute?.failure != nil)
        #expect(state.events.contains { $0.hasPrefix("failed ") })
    }

    @Test func aPageThatNeverReadsHoldsOnlyTheNewestState() async throws {
        let feed = InspectorFeed()
        let session = try await session(feeding: feed)
        let stream = feed.subscribe()
        for number in 0..<40 {
            await session.handle(number.isMultiple(of: 2) ? "/settings" : "/welcome")
        }
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first == feed.currentMessage, "the one state kept is the newest")
        #expect(try decode(first).activePath == ["root", "onboarding"])
    }

    @Test func theEventLogKeepsTheNewestAndCountsTheRest() async throws {
        let feed = InspectorFeed()
        let session = try await session(feeding: feed)
        await session.handle("for _ = 1, 60 do portolan.route '/settings'; portolan.route '/welcome' end")
        let state = try decode(feed.currentMessage)
        #expect(state.events.count == InspectorSnapshot.eventLimit)
        #expect(state.firstEventNumber > 1)
        #expect(state.events.last == "did_route root > onboarding")
    }

    @Test func theNewestPageEndsTheOldestsStreamPastTheLimitAndClosedOnesAreForgotten() async throws {
        let feed = InspectorFeed()
        var streams: [AsyncStream<String>] = []
        for _ in 0..<InspectorFeed.clientLimit {
            streams.append(feed.subscribe())
        }
        let newest = feed.subscribe()
        #expect(feed.clientCount == InspectorFeed.clientLimit)
        try #require(streams.count == InspectorFeed.clientLimit)
        do {
            var oldest = streams[0].makeAsyncIterator()
            #expect(await oldest.next() == feed.currentMessage, "the state it had")
            #expect(await oldest.next() == nil, "then its stream ends")
            var second = streams[1].makeAsyncIterator()
            feed.publish("{\"sequence\":9}")
            #expect(await second.next() == "{\"sequence\":9}", "the others go on")
        }
        streams.removeAll()
        #expect(feed.clientCount == 1, "a stream no one holds ends, and its page is forgotten")
        _ = newest
    }
}
