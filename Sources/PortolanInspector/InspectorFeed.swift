import Portolan

/// The states the REPL sends (`InspectorSnapshot.json`, a whole state each), handed to every
/// connected page.
///
/// Nothing here waits for a page. Each page has a buffer of one message, the newest state (every
/// message is the whole state, so a slow page loses nothing it would show: it skips to the
/// latest); a new state only replaces it. A page that closes is forgotten when its stream ends.
///
/// At most `clientLimit` pages at once, and the newest always gets in: when all are taken, the
/// oldest page's stream ends (its socket closes, saying so). Only the user's own pages, which have
/// the URL's token, get this far (`InspectorAccess`), so a newer one is the tab the user looks at;
/// a page that reconnects takes one place again, never two.
public final class InspectorFeed: Sendable {
    private struct State {
        var message = "{}"
        var clients: [Int: AsyncStream<String>.Continuation] = [:]
        var nextClient = 0
    }

    static let clientLimit = 32
    private let state = Locked(State())

    public init() {}

    /// Makes `message` the current state and sends it to every page.
    public func publish(_ message: String) {
        let clients = state.withLock { state in
            state.message = message
            return Array(state.clients.values)
        }
        for client in clients { client.yield(message) }
    }

    /// The state as JSON, as the page receives it.
    var currentMessage: String {
        state.withLock { $0.message }
    }

    /// A stream of states for one page, starting with the current one. When `clientLimit` pages
    /// are connected already, the oldest one's stream ends.
    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let (id, oldest) = state.withLock { state in
            var oldest: AsyncStream<String>.Continuation?
            if state.clients.count >= Self.clientLimit, let first = state.clients.keys.min() {
                oldest = state.clients.removeValue(forKey: first)
            }
            defer { state.nextClient += 1 }
            state.clients[state.nextClient] = continuation
            continuation.yield(state.message)
            return (state.nextClient, oldest)
        }
        oldest?.finish()
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.clients.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many pages are connected.
    var clientCount: Int {
        state.withLock { $0.clients.count }
    }
}
