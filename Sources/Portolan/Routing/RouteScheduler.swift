/// Which route runs when: the one running, those waiting their turn (`RouteQueue`), and whether a
/// drain is running them on the router's thread. It lives in `RouterState`, behind the router's
/// lock, so a request from any thread and the drain on the router's take turns on it.
struct RouteScheduler {
    /// The routes waiting their turn, first first.
    private(set) var queue = RouteQueue()
    /// The route running now; nil between routes.
    private(set) var running: RouteTicket?
    /// Whether a drain is running the queued routes: one asked for meanwhile waits for it to get there.
    private(set) var isDraining = false

    /// Queues a request under `policy`. Returns whether a drain runs already (it will run the
    /// ticket), and the failure to finish the ticket with when it is refused.
    mutating func admit(_ ticket: RouteTicket, policy: QueuePolicy) -> (isDraining: Bool, refusal: RouteFailure?) {
        // A request for what already runs, or for what was queued last, would do nothing new.
        if isDraining {
            let latest = [running].compactMap { $0 } + queue.waiting.suffix(1)
            if latest.contains(where: { !$0.isCancelled && $0.isSameRequest(as: ticket) }) {
                return (true, RouteFailure(.duplicated, "the same route is already running or queued: '\(ticket.destination)'"))
            }
        }
        if policy == .latestWins, isDraining {
            for queued in queue.waiting { queued.cancel() }
            running?.cancel()
        }
        return (isDraining, queue.append(ticket))
    }

    /// Queues a route its caller is about to drain itself, on the router's thread with no drain
    /// running: bounded by the queue's limits only. The failure when the queue is full.
    mutating func append(_ ticket: RouteTicket) -> RouteFailure? {
        queue.append(ticket)
    }

    /// Marks a drain as running; false when one runs already (it will run what is queued).
    mutating func startDraining() -> Bool {
        defer { isDraining = true }
        return !isDraining
    }

    /// The next queued route, which becomes the running one; nil, after marking the drain over,
    /// when none is left.
    mutating func next() -> RouteTicket? {
        if let ticket = queue.popFirst() {
            running = ticket
            return ticket
        }
        running = nil
        isDraining = false
        return nil
    }
}
