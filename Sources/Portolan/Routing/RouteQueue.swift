/// Route requests waiting their turn, first in first out, in O(1) per operation.
struct RouteQueue {
    private var tickets: [RouteTicket] = []
    private var head = 0

    mutating func append(_ ticket: RouteTicket) {
        tickets.append(ticket)
    }

    mutating func popFirst() -> RouteTicket? {
        guard head < tickets.count else { return nil }
        let ticket = tickets[head]
        head += 1
        if head == tickets.count {
            tickets.removeAll(keepingCapacity: true)
            head = 0
        }
        return ticket
    }
}
