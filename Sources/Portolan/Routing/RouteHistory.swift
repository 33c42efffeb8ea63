/// The finished routes, newest last, bounded: the oldest go when there are more than `limit`, or
/// when they hold more than `byteLimit` (the newest always stays).
struct RouteHistory: Sendable {
    let limit: Int
    private(set) var records: [RouteRecord] = []
    /// What `records` hold, by `HeldBytes`, one count per record.
    private var sizes: [Int] = []
    private var bytes = 0

    /// The most bytes the history keeps, whatever its `limit`. Each record holds a copy of its
    /// destinations' contexts, which a script may make as large as its memory cap (256 MiB): the
    /// default 100 routes of a 16 MiB context held 1.6 GB. 32 MiB keeps thousands of ordinary
    /// routes, and the history is for looking back, not for storing data.
    static let byteLimit = 32 << 20

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Forgets every record, then keeps `records` as `append` would (a restore's saved routes).
    mutating func replace(with restored: [RouteRecord]) {
        records = []
        sizes = []
        bytes = 0
        for record in restored { append(record) }
    }

    mutating func append(_ record: RouteRecord) {
        guard limit > 0 else { return }
        records.append(record)
        let size = record.heldBytes
        sizes.append(size)
        bytes += size
        // Bounded (10,000 at most), so dropping from the front costs little.
        var excess = max(0, records.count - limit)
        var kept = bytes - sizes.prefix(excess).reduce(0, +)
        while kept > Self.byteLimit, excess < records.count - 1 {
            kept -= sizes[excess]
            excess += 1
        }
        guard excess > 0 else { return }
        records.removeFirst(excess)
        sizes.removeFirst(excess)
        bytes = kept
    }
}
