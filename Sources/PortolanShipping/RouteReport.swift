import Portolan

/// One route as the REPL, the inspector and a failing scenario's report show it, rebuilt from the
/// router's events.
public struct RouteReport: Sendable {
    /// Where the route was asked to go.
    public package(set) var requested: Destination?
    /// Where it ended, after any redirect.
    public package(set) var settled: Destination?
    /// What ran, in order.
    public package(set) var instructions: [Instruction]
    public package(set) var failure: RouteFailure?
    /// The undo of a failed route, step by step.
    public package(set) var rolledBack: [Instruction] = []
    /// The step that asked for the route (`portolan.step`), if one did.
    public package(set) var step: RouteStep?
    /// Whether a guard or an interceptor sent the route elsewhere (a `redirected` event), rather than
    /// `settled` being only the path a relative destination (a push, a live copy) became.
    public package(set) var redirected = false

    /// How a report says where the route went when that differs from where it was asked to go:
    /// `redirected to` after a guard's or an interceptor's redirect, `resolved to` for the path a
    /// push or a live copy became. Nil when it went where it was asked.
    public static func arrival(requested: Destination?, settled: Destination?, redirected: Bool) -> String? {
        guard let settled, let requested, settled != requested else { return nil }
        return redirected ? "redirected to" : "resolved to"
    }

    /// `arrival` for a route the history keeps, which holds no redirect events: a relative
    /// destination (a push, a live copy, an update, a removal or replacement) is taken to have been resolved, any other to have been
    /// redirected.
    public static func arrival(of record: RouteRecord) -> String? {
        let relative: Bool
        switch record.requested {
        case .push, .live, .update, .remove, .replace: relative = true
        case .path, .anywhere, .reset: relative = false
        }
        return arrival(requested: record.requested, settled: record.settled, redirected: !relative)
    }

    /// A route's result, for a route the router never announced (no app, a URL leading nowhere).
    package init(_ result: RouteResult) {
        switch result {
        case .success(let instructions): self.init(instructions: instructions)
        case .failure(let failure):
            self.init(instructions: failure.executed, failure: failure)
            rolledBack = failure.rolledBack
        }
    }

    init(requested: Destination? = nil, settled: Destination? = nil, instructions: [Instruction], failure: RouteFailure? = nil) {
        self.requested = requested
        self.settled = settled
        self.instructions = instructions
        self.failure = failure
    }

    /// Folds one event into the routes told so far: `will_route` starts a route (with the step
    /// that asked for it), and the events after it fill that route in; a request refused before it
    /// became a route (`failed` alone) is a route of its own. The one definition of how
    /// events make routes, for the REPL, the inspector and a scenario's report.
    package static func fold(_ event: RouterEvent, step: RouteStep? = nil, into reports: inout [RouteReport]) {
        switch event {
        case .willRoute(let destination):
            var report = RouteReport(requested: destination, instructions: [])
            report.step = step
            reports.append(report)
        case .instruction(let instruction):
            running(reports).map { reports[$0].instructions.append(instruction) }
        case .didRoute(let destination, _):
            running(reports).map { reports[$0].settled = destination }
        case .failed(let destination, let failure) where failure.stage == .request:
            // Refused before it became a route: a report of its own, wherever it was asked for.
            let asked = destination == .path([]) ? nil : destination
            var report = RouteReport(requested: asked, settled: asked, instructions: [], failure: failure)
            report.step = step
            reports.append(report)
        case .failed(let destination, let failure):
            running(reports).map {
                reports[$0].settled = destination
                reports[$0].failure = failure
            }
        case .rolledBack(let instruction):
            running(reports).map { reports[$0].rolledBack.append(instruction) }
        case .redirected:
            running(reports).map { reports[$0].redirected = true }
        case .hostReported, .treeCarried:
            break
        }
    }

    /// The route the events now fill in: the last one announced by `will_route` (a refused
    /// request, told of inside it, is not it).
    private static func running(_ reports: [RouteReport]) -> Int? {
        reports.lastIndex { $0.failure?.stage != .request }
    }
}
