import Synchronization

/// Where a router's events go: the observers called with each, synchronously, and the streams of
/// `events()`, each fed without waiting for its reader.
///
/// It keeps no router and no tree, only who listens, behind a lock of its own; any thread may add a
/// listener, and the router emits on its own thread. A stream ends when its reader stops iterating,
/// or when its source is replaced (`finishStreams`). A host that outlives its routers (a reload
/// replaces the router) has one of its own, fed with the events of whichever router it has.
package final class RouterEventHub: Sendable {
    private let listeners = Mutex(Listeners())

    private struct Listeners {
        var observers: [Observer] = []
        var streams: [Int: AsyncStream<RouterEvent>.Continuation] = [:]
        var nextStreamID = 0
    }

    /// An observer, and for one that says when it listens (`observe(whenListening:_:)`), whether
    /// it does now: asked once per event, before the event is built.
    private struct Observer {
        let isListening: (@Sendable () -> Bool)?
        let hear: @Sendable (RouterEvent) -> Void

        var listens: Bool { isListening?() ?? true }
    }

    /// The most events a stream holds for a reader that does not keep up: each holds its
    /// destinations' contexts, and a script that routes in a loop could otherwise fill memory while
    /// the reader sleeps. A live view needs the newest, not ten thousand behind.
    package let bufferLimit: Int

    package init(bufferLimit: Int) {
        self.bufferLimit = bufferLimit
    }

    /// Calls `observer` with every event from now on, in the order they are emitted.
    package func observe(_ observer: @escaping @Sendable (RouterEvent) -> Void) {
        listeners.withLock { $0.observers.append(Observer(isListening: nil, hear: observer)) }
    }

    /// Calls `observer` with every event from now on, as `observe(_:)` does, but only while
    /// `isListening` says so: while neither it nor any other listener does, no event is built (a
    /// host always observes its router, but most of the time has no one to hand the events to).
    package func observe(
        whenListening isListening: @escaping @Sendable () -> Bool, _ observer: @escaping @Sendable (RouterEvent) -> Void
    ) {
        listeners.withLock { $0.observers.append(Observer(isListening: isListening, hear: observer)) }
    }

    /// Whether anything listens now: an observer (one that says when it listens, only when it
    /// does) or a stream.
    package var isListenedTo: Bool {
        let (observers, streams) = listeners.withLock { ($0.observers, $0.streams.count) }
        return streams > 0 || observers.contains { $0.listens }
    }

    /// A new stream of every event from now on; a reader more than `bufferLimit` events behind
    /// loses the oldest of them.
    package func stream() -> AsyncStream<RouterEvent> {
        let (stream, continuation) = AsyncStream<RouterEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
        let id = listeners.withLock { listeners in
            defer { listeners.nextStreamID += 1 }
            listeners.streams[listeners.nextStreamID] = continuation
            return listeners.nextStreamID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `event` to every observer, then to every stream. The listeners are read first and
    /// called after the lock is let go, so an observer may add listeners or queue a route. With no
    /// listener the event is not even built, and no list of streams is made when there is none.
    /// An observer that says when it listens is asked once per event, and told of it, when it
    /// listens, right after it said so.
    package func emit(_ event: @autoclosure () -> RouterEvent) {
        let (observers, streams) = listeners.withLock { listeners in
            (listeners.observers, listeners.streams.isEmpty ? [] : Array(listeners.streams.values))
        }
        // Each observer that says when it listens is asked once; the event is built for the first
        // that takes it (one value, not an optional copied from listener to listener).
        let first = observers.firstIndex { $0.listens } ?? observers.endIndex
        guard first < observers.endIndex || !streams.isEmpty else { return }
        let event = event()
        for index in first..<observers.endIndex where index == first || observers[index].listens {
            observers[index].hear(event)
        }
        for stream in streams {
            stream.yield(event)
        }
    }

    /// Ends every stream: their readers' loops end instead of waiting for events that will never
    /// come (the router was replaced). Observers stay.
    package func finishStreams() {
        let streams = listeners.withLock { listeners in
            defer { listeners.streams = [:] }
            return Array(listeners.streams.values)
        }
        for stream in streams {
            stream.finish()
        }
    }
}
