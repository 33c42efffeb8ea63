import Portolan

/// What the router did while one scenario ran: the events `expect_events` has not asserted yet, in
/// their canonical text (`RouterEvent.description`), and the routes they tell of, which a failing
/// scenario's report lists.
///
/// Both are bounded, so that a scenario that routes in a loop cannot make the runner hold every
/// event: past `eventLimit` unasserted events, later ones are only counted (and `expect_events`
/// then fails, saying so); past `routeLimit` routes, the oldest are dropped and counted.
struct ScenarioJournal: Sendable {
    static let eventLimit = 10_000
    static let routeLimit = 200
    /// A route line is cut here: a destination's context may be long.
    static let routeLineLimit = 300

    private(set) var unasserted: [String] = []
    /// Events not kept in `unasserted` because it was full.
    private(set) var overflow = 0
    private(set) var routes: [RouteReport] = []
    /// Routes dropped from the front of `routes` because it was full.
    private(set) var earlierRoutes = 0

    mutating func record(_ event: RouterEvent) {
        if unasserted.count < Self.eventLimit {
            unasserted.append(event.description)
        } else {
            overflow += 1
        }
        if case .willRoute = event, routes.count == Self.routeLimit {
            routes.removeFirst()
            earlierRoutes += 1
        }
        RouteReport.fold(event, into: &routes)
    }

    /// The unasserted events, which are then asserted; a failure when more came than were kept.
    mutating func take() -> Result<[String], OverflowError> {
        defer {
            unasserted = []
            overflow = 0
        }
        return overflow == 0 ? .success(unasserted) : .failure(OverflowError(count: Self.eventLimit + overflow))
    }

    /// More events came since the last `expect_events` than the journal keeps.
    struct OverflowError: Error {
        var count: Int
        var message: String {
            "\(count) events since the last expect_events, more than the \(ScenarioJournal.eventLimit) kept: assert them in smaller parts"
        }
    }

    /// The routes run, numbered from the scenario's first: what a failure's report lists.
    var routeLines: [String] {
        var lines: [String] = []
        if earlierRoutes > 0 { lines.append("(\(earlierRoutes) earlier routes not kept)") }
        for (offset, route) in routes.enumerated() {
            lines.append("\(earlierRoutes + offset + 1). \(Self.line(route))")
        }
        return lines
    }

    /// `root > a: ok (2 instructions)`, `root > a, redirected to root > login: ok (1 instruction)`,
    /// `root > b: failed denied: not logged in`, cut at `routeLineLimit` bytes.
    private static func line(_ route: RouteReport) -> String {
        var line = route.requested.map { "\($0)" } ?? "?"
        if let settled = route.settled, settled != route.requested { line += ", redirected to \(settled)" }
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
