import Portolan

/// The server's connections, so that no client can hold the inspector from the user's page.
///
/// The policy, with the limits below:
/// - A connection must send its whole request head within `requestSeconds` (a browser sends it at
///   once); then it is answered and closed, one request per connection, so that no socket idles
///   between requests.
/// - At most `pendingLimit` connections wait for or are being answered at once. When one more
///   arrives, the oldest of them is closed: sockets that never send a request cannot lock the
///   page out, since the page's own request comes newest and is answered within milliseconds.
/// - A WebSocket that passed `InspectorAccess` is a page of the user's, and leaves this count for
///   the feed's (`InspectorFeed.clientLimit`, where the newest page also gets in).
/// `stop` closes them all.
final class InspectorConnections: Sendable {
    static let requestSeconds = 5.0
    static let pendingLimit = 64

    private struct Connection {
        var task: Task<Void, Never>?
        var isPage = false
    }

    private struct State {
        var connections: [Int: Connection] = [:]
        var next = 0
        var isStopped = false
    }

    private let state = Locked(State())

    /// Starts `serve` for a new connection, with its id, closing the oldest pending one past the limit.
    func open(_ serve: @escaping @Sendable (Int) async -> Void) {
        let (id, evicted) = state.withLock { state -> (Int?, Task<Void, Never>?) in
            guard !state.isStopped else { return (nil, nil) }
            let id = state.next
            state.next += 1
            state.connections[id] = Connection()
            let pending = state.connections.filter { !$0.value.isPage }
            guard pending.count > Self.pendingLimit, let oldest = pending.keys.min() else { return (id, nil) }
            return (id, state.connections.removeValue(forKey: oldest)?.task)
        }
        evicted?.cancel()
        guard let id else { return }
        let task = Task { await serve(id) }
        let isGone = state.withLock { state in
            guard state.connections[id] != nil else { return true }
            state.connections[id]?.task = task
            return false
        }
        if isGone { task.cancel() }
    }

    /// Connection `id` is a page's WebSocket from now on.
    func becomePage(_ id: Int) {
        state.withLock { $0.connections[id]?.isPage = true }
    }

    /// Connection `id` has ended.
    func close(_ id: Int) {
        state.withLock { _ = $0.connections.removeValue(forKey: id) }
    }

    /// Ends every connection, and refuses new ones.
    func stop() {
        let tasks = state.withLock { state in
            state.isStopped = true
            defer { state.connections = [:] }
            return state.connections.values.compactMap(\.task)
        }
        for task in tasks { task.cancel() }
    }
}
