import Portolan
import Testing

/// An observer that says when it listens (`observe(whenListening:_:)`, as a host observes its
/// router): while neither it nor anything else listens, the router builds no event.
@Suite struct RouterEventListeningTests {
    @Test func noEventIsBuiltWhileNothingListens() {
        let hub = RouterEventHub(bufferLimit: 10)
        let listening = Locked(false)
        let seen = Locked<[RouterEvent]>([])
        hub.observe(whenListening: { listening.value }) { event in seen.withLock { $0.append(event) } }
        var built = 0
        func event() -> RouterEvent {
            built += 1
            return .willRoute(.path([Entry("a")]))
        }
        hub.emit(event())
        #expect(built == 0, "no one listened, so the event was not built")
        #expect(!hub.isListenedTo)
        listening.withLock { $0 = true }
        hub.emit(event())
        #expect(built == 1)
        #expect(seen.value.count == 1)
        #expect(hub.isListenedTo)
    }

    @Test func aPlainObserverAlwaysListens() {
        let hub = RouterEventHub(bufferLimit: 10)
        hub.observe(whenListening: { false }) { _ in }
        let seen = Locked(0)
        hub.observe { _ in seen.withLock { $0 += 1 } }
        hub.emit(.willRoute(.path([Entry("a")])))
        #expect(seen.value == 1)
        #expect(hub.isListenedTo)
    }

    /// The host's predicate (`HostCore.hasEventListeners`) costs a lock and more: it was asked
    /// twice per event, once before the event was built and again before handing it over.
    @Test func aListeningObserverIsAskedOncePerEvent() {
        let hub = RouterEventHub(bufferLimit: 10)
        let asked = Locked(0)
        let seen = Locked(0)
        hub.observe(whenListening: { asked.withLock { $0 += 1 }; return true }) { _ in seen.withLock { $0 += 1 } }
        for _ in 0..<3 { hub.emit(.willRoute(.path([Entry("a")]))) }
        #expect(seen.value == 3)
        #expect(asked.value == 3)
    }
}
