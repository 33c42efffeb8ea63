import Portolan
import PortolanLua
import PortolanShipping

/// Where everything the session shows goes, and how it shows routes, the active path and events.
///
/// One call of the output per message, without a trailing newline, coloured for its role by the
/// style. What the Lua of one input prints is bounded (`BoundedOutput`), as a scenario's output is.
struct ReplPrinter: Sendable {
    /// How lines are coloured.
    let style: ReplStyle
    private let output: @Sendable (String) -> Void
    /// How much of what the running input's Lua prints is still shown.
    private let printedByLua = Locked(BoundedOutput())

    init(style: ReplStyle, output: @escaping @Sendable (String) -> Void) {
        self.style = style
        self.output = output
    }

    /// Writes one message as it is.
    func write(_ text: String) {
        output(text)
    }

    /// Writes one message, coloured for its role.
    func say(_ text: String, _ role: ReplStyle.Role) {
        output(style.paint(text, role))
    }

    /// A new line typed: what its Lua prints is counted afresh.
    func startLine() {
        printedByLua.withLock { $0 = BoundedOutput() }
    }

    /// A line Lua's `print` wrote (the host's output): shown while the line's bound allows.
    func printFromLua(_ line: String) {
        if let kept = printedByLua.withLock({ $0.admit(line) }) { output(kept) }
    }

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
        if let arrival = RouteReport.arrival(requested: report.requested, settled: report.settled, redirected: report.redirected),
            let settled = report.settled
        {
            say("\(arrival) \(Excerpt.of(settled.description))", .note)
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

    /// The active path of `router`, the app's (nil while no app is declared).
    func showActivePath(of router: Router?) {
        guard let router else {
            write("active: (no app declared yet: call portolan.app { ... })")
            return
        }
        say("active: " + router.activePath.map(\.description).joined(separator: " > "), .activePath)
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
