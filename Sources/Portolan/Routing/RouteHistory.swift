/// The finished routes, newest last, bounded: the oldest go when there are more than `limit`, or
/// when they hold more than `byteLimit` (the newest always stays).
///
/// The records live in a ring of slots: the oldest is dropped by moving `head` on, not by shifting
/// every record after it, so a route costs the same with `history = 10000` as with 100 (issue 24:
/// shifting made it 14×). A ring of indices over an array rather than swift-collections' `Deque`:
/// the engine depends on nothing but the standard library, and this is its one ring.
struct RouteHistory: Sendable {
    let limit: Int
    /// The ring: the `count` records, oldest first, from `slots[head]` on, wrapping at the end;
    /// the other slots are nil. It grows (doubling, up to `limit` slots) only while it is full.
    private var slots: [Slot?] = []
    private var head = 0
    private var count = 0
    /// What the records hold, by `HeldBytes`.
    private var bytes = 0

    private struct Slot: Sendable {
        let record: RouteRecord
        let size: Int
    }

    /// The most bytes the history keeps, whatever its `limit`. Each record holds a copy of its
    /// destinations' contexts, which a script may make as large as its memory cap (256 MiB): the
    /// default 100 routes of a 16 MiB context held 1.6 GB. 32 MiB keeps thousands of ordinary
    /// routes, and the history is for looking back, not for storing data.
    static let byteLimit = 32 << 20

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The records, oldest first (a new array: reading the history is rare, routing is not).
    var records: [RouteRecord] {
        var records: [RouteRecord] = []
        records.reserveCapacity(count)
        for offset in 0..<count {
            if let slot = slots[(head + offset) % slots.count] { records.append(slot.record) }
        }
        return records
    }

    /// The newest record, without building the array `records` builds.
    var newest: RouteRecord? {
        count == 0 ? nil : slots[(head + count - 1) % slots.count]?.record
    }

    /// Forgets every record, then keeps `records` as `append` would (a restore's saved routes).
    mutating func replace(with restored: [RouteRecord]) {
        slots = []
        head = 0
        count = 0
        bytes = 0
        for record in restored { append(record) }
    }

    mutating func append(_ record: RouteRecord) {
        guard limit > 0 else { return }
        let size = record.heldBytes
        if count == limit { dropOldest() }
        while count > 0, bytes + size > Self.byteLimit { dropOldest() }
        if count == slots.count { grow() }
        slots[(head + count) % slots.count] = Slot(record: record, size: size)
        count += 1
        bytes += size
    }

    private mutating func dropOldest() {
        bytes -= slots[head]?.size ?? 0
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
    }

    /// A ring twice as large (at most `limit` slots), its records moved to the front.
    private mutating func grow() {
        let capacity = min(limit, max(8, slots.count * 2))
        var grown: [Slot?] = []
        grown.reserveCapacity(capacity)
        for offset in 0..<count { grown.append(slots[(head + offset) % slots.count]) }
        grown.append(contentsOf: repeatElement(nil, count: capacity - count))
        slots = grown
        head = 0
    }
}
