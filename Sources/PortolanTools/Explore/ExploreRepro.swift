import Portolan

/// A finding's shortest repro as a scenario file (docs/explore.md): from the start, the actions
/// breadth-first search took to the state, then the action and a check that fails under
/// `portolan test` for the reason the explorer found. That file is the bug report.
public enum ExploreRepro {
    /// The file name of the `index`-th finding (0-based): `explore-03-dead-end.lua`.
    public static func fileName(index: Int, finding: ExploreFinding) -> String {
        let number = index + 1 < 10 ? "0\(index + 1)" : "\(index + 1)"
        return "explore-\(number)-\(finding.kind.name).lua"
    }

    /// The scenario file of `finding` in `report`; `from` is the snapshot the run started from.
    public static func scenario(for finding: ExploreFinding, in report: ExploreReport, from snapshot: String?) -> String {
        var lines = [
            LuaSource.comment("Found by portolan explore: \(finding.kind.name) (\(finding.kind.meaning))."),
            LuaSource.comment(finding.summary),
            LuaSource.comment("Run: portolan test --app \(report.app) THIS_FILE"),
            "",
            "-- The app's state as a snapshot keeps it, without the routes' history.",
            "local function state() return (portolan.snapshot():gsub('\"history\":%b[],', '', 1)) end",
            "-- A change of the app's state, as the explorer makes it: the value, then the guards asked again.",
            ExploreActionLua.setStateFunction,
            "",
            "scenario(\(LuaSource.string("explore: " + oneLine(finding.kind.name + " at " + finding.path + (finding.action.map { " (\($0))" } ?? "")))), function()",
            "  local failures = {}",
            "  portolan.on(\"failed\", function(err) failures[#failures + 1] = err end)",
        ]
        if let snapshot {
            lines.append("  expect_restore(\(LuaSource.longString(snapshot)), { outcome = \"restored\" })")
        }
        lines.append("  local start = portolan.snapshot()")
        // For an unreachable screen, the way to the state nearest it: the state changes (a login)
        // the route needs, so that the repro passes once the screen can be reached.
        let steps = report.actions(to: finding.state)
        if !steps.isEmpty { lines.append("  " + LuaSource.comment("The shortest way to \(finding.path):")) }
        for step in steps { lines.append("  " + ExploreActionLua.action(step)) }
        if finding.state < report.states.count {
            let path = report.states[finding.state].path
            lines.append("  expect(portolan.active_entries(), { " + path.map(LuaSource.activeEntry).joined(separator: ", ") + " })")
        }
        lines.append("  for key in pairs(failures) do failures[key] = nil end")
        lines += check(finding, in: report, target: finding.node.flatMap { report.destinations[$0] }).map { "  " + $0 }
        lines.append("end)")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func check(_ finding: ExploreFinding, in report: ExploreReport, target: Destination?) -> [String] {
        let context = (action: finding.action.map(ExploreActionLua.action) ?? "nil", name: LuaSource.string(finding.kind.name))
        switch finding.kind {
        case .handlerError, .redirectLoop: return ExploreReproChecks.failure(finding, context)
        case .deadEnd, .unreachable, .backMismatch: return ExploreReproChecks.place(finding, in: report, target: target, context)
        case .planMismatch, .noRollback: return ExploreReproChecks.route(finding, context)
        case .nondeterminism, .snapshotLoss: return ExploreReproChecks.again(finding, context)
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

}

extension RandomAccessCollection where Index == Int {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
