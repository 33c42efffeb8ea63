import Portolan
import PortolanLua

/// How the session shows routes, plans, the active path and the tree.
extension ReplSession {
    /// Shows the routes the events tell of, or `result` when the router saw none.
    func showRoutes(_ events: [RouteEventLog.Logged], result: RouteResult) {
        let routes = RouteReport.reports(from: events)
        guard !routes.isEmpty else {
            // The router never saw the route (no app declared, a URL that leads nowhere): only
            // the result tells.
            show(result)
            return
        }
        for (index, report) in routes.enumerated() {
            if index > 0, let requested = report.requested { write("then, queued meanwhile: \(requested)") }
            show(report)
        }
    }

    func show(_ result: RouteResult) {
        show(RouteReport(result))
    }

    func show(_ report: RouteReport) {
        if let step = report.step {
            say("step \(step)", .note)
        }
        if let settled = report.settled, let requested = report.requested, settled != requested {
            say("redirected to \(Excerpt.of(settled.description))", .note)
        }
        for instruction in report.instructions {
            say("  \(instruction)", .instruction)
        }
        if let failure = report.failure {
            say("failed: \(failure)", .error)
            for instruction in report.rolledBack { say("  rolled back: \(instruction)", .instruction) }
        } else if report.instructions.isEmpty {
            write("(nothing to do)")
        }
    }

    func showActivePath() async {
        guard let router = await host.router else {
            write("active: (no app declared yet: call portolan.app { ... })")
            return
        }
        say("active: " + router.activePath.map(\.description).joined(separator: " > "), .activePath)
    }

    func tree() async {
        guard let router = await host.router else {
            write("(no app declared yet: call portolan.app { ... })")
            return
        }
        write(GraphRenderer.activeTree(router.tree))
    }

    /// An event as `:events on` prints it: its canonical text (what `expect_events` asserts), with
    /// the route's step, a finished route's instruction count and a failure's message.
    static func describe(_ event: RouterEvent, step: RouteStep? = nil) -> String {
        let detail: String
        switch event {
        case .willRoute: detail = step.map { " (step \($0))" } ?? ""
        case .didRoute(_, let executed):
            detail = " (\(executed.count) instruction\(executed.count == 1 ? "" : "s"))"
        default: detail = ""
        }
        return event.textWithMessage + detail
    }
}
