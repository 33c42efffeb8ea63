import Portolan

/// What the router did while one scenario ran: the events `expect_events` has not asserted yet, in
/// their canonical text (`RouterEvent.description`), and the routes they tell of, which a failing
/// scenario's report lists.
///
/// Both are bounded, by count and by bytes, so that a scenario that routes in a loop, or with
/// large contexts, cannot make the runner hold every event: past `eventLimit` unasserted events
/// or `eventBytes` of their text, later ones are only counted (and `expect_events` then fails,
/// saying so); past `routeLimit` routes, the oldest are dropped and counted. A finished route is
/// kept as its report line alone (at most `routeLineLimit` bytes), never its destinations.
struct ScenarioJournal: Sendable {
    static let eventLimit = 10_000
    /// The most bytes of unasserted event text. An event's text is at most 16 KiB
    /// (`RouterEvent.textBytes`), so 10,000 of them could reach 160 MiB; a scenario asserts its
    /// events in parts far smaller than 8 MiB, and 80 routes of a 16 MiB context once held 3.46 GB
    /// of texts here.
    static let eventBytes = 8 << 20
    static let routeLimit = 200
    /// A route line is cut here: a destination's context may be long.
    static let routeLineLimit = 300

    private(set) var unasserted: [String] = []
    private var unassertedBytes = 0
    /// Events not kept in `unasserted` because it was full.
    private(set) var overflow = 0
    /// The lines of the finished routes kept, oldest first.
    private var finishedLines: [String] = []
    /// The route running now, or the last one: later events may still fill it in (`rolled_back`).
    private var current: [RouteReport] = []
    /// Routes dropped from the front of `finishedLines` because it was full.
    private(set) var earlierRoutes = 0

    mutating func record(_ event: RouterEvent) {
        let text = event.description
        if unasserted.count < Self.eventLimit, unassertedBytes + text.utf8.count <= Self.eventBytes {
            unasserted.append(text)
            unassertedBytes += text.utf8.count
        } else {
            overflow += 1
        }
        if case .willRoute = event, let finished = current.popLast() {
            finish(finished)
        }
        if case .failed(_, let failure) = event, failure.stage == .request {
            // Refused before it became a route: finished as it is told, while any route runs on.
            var refused: [RouteReport] = []
            RouteReport.fold(event, into: &refused)
            refused.forEach { finish($0) }
            return
        }
        RouteReport.fold(event, into: &current)
    }

    private mutating func finish(_ route: RouteReport) {
        if finishedLines.count == Self.routeLimit - 1 {
            finishedLines.removeFirst()
            earlierRoutes += 1
        }
        finishedLines.append(Self.line(route))
    }

    /// The unasserted events, which are then asserted; a failure when more came than were kept.
    mutating func take() -> Result<[String], OverflowError> {
        defer {
            unasserted = []
            unassertedBytes = 0
            overflow = 0
        }
        return overflow == 0 ? .success(unasserted) : .failure(OverflowError(count: unasserted.count + overflow))
    }

    /// More events came since the last `expect_events` than the journal keeps.
    struct OverflowError: Error {
        var count: Int
        var message: String {
            "\(count) events since the last expect_events, more than the \(ScenarioJournal.eventLimit) kept "
                + "(or their \(ScenarioJournal.eventBytes >> 20) MiB of text): assert them in smaller parts"
        }
    }

    /// The routes run, numbered from the scenario's first: what a failure's report lists.
    var routeLines: [String] {
        var lines: [String] = []
        if earlierRoutes > 0 { lines.append("(\(earlierRoutes) earlier routes not kept)") }
        for (offset, line) in (finishedLines + current.map(Self.line)).enumerated() {
            lines.append("\(earlierRoutes + offset + 1). \(line)")
        }
        return lines
    }

    /// `root > a: ok (2 instructions)`, `root > a, redirected to root > login: ok (1 instruction)`,
    /// `push detail, resolved to root > home > detail: ok (1 instruction)`,
    /// `root > b: failed denied: not logged in`, cut at `routeLineLimit` bytes.
    private static func line(_ route: RouteReport) -> String {
        var line = route.requested.map { "\($0)" } ?? route.failure?.url ?? "(nothing)"
        if let arrival = RouteReport.arrival(requested: route.requested, settled: route.settled, redirected: route.redirected),
            let settled = route.settled
        {
            line += ", \(arrival) \(settled)"
        }
        if let failure = route.failure {
            line += ": failed \(failure.kind.rawValue): \(failure.message)"
        } else if route.settled != nil {
            let count = route.instructions.count
            line += ": ok (\(count) instruction\(count == 1 ? "" : "s"))"
        } else {
            line += ": did not finish"
        }
        guard line.utf8.count > routeLineLimit else { return line }
        return String(decoding: line.utf8.prefix(routeLineLimit), as: UTF8.self) + "…"
    }
}
