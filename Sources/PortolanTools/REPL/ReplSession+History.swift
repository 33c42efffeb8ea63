/// `:history`: the route requests of the session, numbered, with what each did.
extension ReplSession {
    /// Remembers the routes a line ran.
    func remember(_ reports: [RouteReport], label: String) {
        for report in reports {
            routeHistory.append((label: label, report: report))
        }
    }

    func showHistory() {
        guard !routeHistory.isEmpty else {
            say("(no routes yet)", .note)
            return
        }
        let width = String(routeHistory.count).count
        let pad = String(repeating: " ", count: width + 2)
        for (index, item) in routeHistory.enumerated() {
            let number = String(index + 1)
            let label = item.label.split(separator: "\n").joined(separator: " ⏎ ")
            let report = item.report
            var line = String(repeating: " ", count: width - number.count) + number + "  " + label
            if let requested = report.requested, requested.description != label { line += "  (to \(requested))" }
            write(line)
            if let settled = report.settled, let requested = report.requested, settled != requested {
                say(pad + "redirected to \(settled)", .note)
            }
            for instruction in report.instructions { say(pad + "  \(instruction)", .instruction) }
            if let failure = report.failure {
                say(pad + "failed: \(failure)", .error)
            } else if report.instructions.isEmpty {
                say(pad + "(nothing to do)", .note)
            }
        }
    }
}
