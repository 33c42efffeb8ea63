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

    /// An event as `:events on` prints it.
    static func describe(_ event: RouterEvent, step: RouteStep? = nil) -> String {
        switch event {
        case .willRoute(let destination): return "will_route \(destination)" + (step.map { " (step \($0))" } ?? "")
        case .instruction(let instruction): return "instruction \(instruction)"
        case .didRoute(let destination, let executed):
            return "did_route \(destination) (\(executed.count) instruction\(executed.count == 1 ? "" : "s"))"
        case .failed(let destination, let failure): return "failed \(destination): \(failure)"
        case .hostReported(let instruction): return "host_reported \(instruction)"
        case .redirected(let from, let to): return "redirected \(from) → \(to)"
        case .rolledBack(let instruction): return "rolled_back \(instruction)"
        }
    }
}
