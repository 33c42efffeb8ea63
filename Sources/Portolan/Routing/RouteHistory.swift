/// One finished route, as `Router.history` keeps it.
public struct RouteRecord: Sendable, Equatable {
    /// Where the route was asked to go.
    public let requested: Destination
    /// Where it went after any redirect.
    public let settled: Destination
    /// What it executed (for a failed route, what ran before the failure; see `failure` for its undo).
    public let executed: [Instruction]
    /// Why it failed; nil when it reached its destination.
    public let failure: RouteFailure?
}

/// The finished routes, newest last, bounded: the oldest go when there are more than `limit`.
struct RouteHistory: Sendable {
    let limit: Int
    private(set) var records: [RouteRecord] = []

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    mutating func append(_ record: RouteRecord) {
        guard limit > 0 else { return }
        records.append(record)
        // Bounded (10,000 at most), so dropping from the front costs little.
        if records.count > limit { records.removeFirst(records.count - limit) }
    }
}

extension Router {
    /// The finished routes, newest last, at most `configuration.historyLimit` of them.
    public var history: [RouteRecord] {
        state.withLock { $0.history.records }
    }
}
