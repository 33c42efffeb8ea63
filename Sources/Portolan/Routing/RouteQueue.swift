/// The routes asked for while a route runs, waiting their turn (first in first out), bounded by
/// count and by bytes: a route asked for past either bound fails at once as `invalid`, saying
/// which, and nothing else changes.
///
/// Each waiting route holds its destination converted to Swift values, contexts included, so a
/// handler that queues in a loop could hold, outside the Lua state's memory cap, a copy of its
/// context per route: 500 routes of a 5 MiB context reached 2.6 GB, 3,000 aborted the process.
struct RouteQueue {
    /// The most routes waiting at once. A handler that queues more than a thousand routes while
    /// one runs is a loop, not navigation.
    static let routeLimit = 1_000
    /// The most bytes (`HeldBytes`) the waiting routes may hold in all: a few screens of ordinary
    /// contexts take kilobytes; 64 MiB is a quarter of a state's memory cap.
    static let byteLimit = 64 << 20

    private var tickets = FIFOQueue<RouteTicket>()
    private var sizes = FIFOQueue<Int>()
    private var bytes = 0
    private var count = 0

    var isEmpty: Bool { tickets.isEmpty }

    /// The routes waiting, first first.
    var waiting: ArraySlice<RouteTicket> { tickets.waiting }

    /// Queues `ticket`; the failure to finish it with when the queue is full.
    mutating func append(_ ticket: RouteTicket) -> RouteFailure? {
        let size = ticket.heldBytes
        if count >= Self.routeLimit {
            return RouteFailure(
                .invalid, "the route queue is full: \(Self.routeLimit) routes already wait (the limit); a route queued in a loop?")
        }
        if bytes + size > Self.byteLimit, count > 0 {
            return RouteFailure(
                .invalid,
                "the route queue is full: its routes would hold \(bytes + size) bytes, past the limit of \(Self.byteLimit) (64 MiB); queue fewer routes, or smaller contexts")
        }
        tickets.append(ticket)
        sizes.append(size)
        bytes += size
        count += 1
        return nil
    }

    mutating func popFirst() -> RouteTicket? {
        guard let ticket = tickets.popFirst() else { return nil }
        bytes -= sizes.popFirst() ?? 0
        count -= 1
        return ticket
    }
}

extension RouteTicket: HeldBytes {
    public var heldBytes: Int {
        Self.overhead + destination.heldBytes + (step?.heldBytes ?? 0) + (url.map { $0.url.utf8.count + $0.destination.heldBytes } ?? 0)
    }
}
