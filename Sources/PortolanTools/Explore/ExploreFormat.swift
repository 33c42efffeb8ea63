import Portolan
import PortolanShipping

/// The formats of an exploration's report: `text` for people, `json` for tools, `junit` and
/// `github` (workflow annotations) for CI. Every one is a function of the report alone, which
/// holds no times: the same exploration gives the same bytes.
public enum ExploreFormat: String, Sendable, CaseIterable {
    case text, json, junit, github

    /// The notation this format's escapes are written in, so that a CI log's writer can neutralise
    /// workflow commands in it and keep it valid (`CILogText`); nil for `github`, whose lines are the
    /// tool's own commands, their data made safe as they are built.
    public var notation: CILogText.Notation? {
        switch self {
        case .text: .text
        case .json: .json
        case .junit: .xml
        case .github: nil
        }
    }

    public func render(_ report: ExploreReport, reproFiles: [String?] = []) -> String {
        switch self {
        case .text: ExploreTextReport.text(report, reproFiles: reproFiles)
        case .json: ExploreTextReport.json(report, reproFiles: reproFiles)
        case .junit: ExploreTextReport.junit(report, reproFiles: reproFiles)
        case .github: ExploreTextReport.github(report, reproFiles: reproFiles)
        }
    }
}

/// The four renderings of a report.
enum ExploreTextReport {
    static func summary(_ report: ExploreReport) -> String {
        let found = report.findings.count
        return "explored \(report.states.count) state\(report.states.count == 1 ? "" : "s"), "
            + "\(report.transitions) action\(report.transitions == 1 ? "" : "s"), "
            + "\(report.visitedNodes.intersection(report.nodes).count) of \(report.nodes.count) screens: "
            + "\(found) finding\(found == 1 ? "" : "s")"
    }

    static func text(_ report: ExploreReport, reproFiles: [String?]) -> String {
        var lines: [String] = []
        for (index, finding) in report.findings.enumerated() {
            lines.append("\(finding.kind.name): \(finding.path)" + (finding.action.map { " (\($0))" } ?? ""))
            lines.append("  " + finding.evidence)
            let steps = report.actions(to: finding.state)
            if !steps.isEmpty { lines.append("  reached by: " + steps.map(\.description).joined(separator: "; ")) }
            if index < report.repeats.count, report.repeats[index] > 0 {
                lines.append("  seen \(report.repeats[index]) more time\(report.repeats[index] == 1 ? "" : "s")")
            }
            if index < reproFiles.count, let file = reproFiles[index] { lines.append("  repro: \(file)") }
        }
        for limit in report.limitsReached { lines.append("limit reached: " + limit) }
        lines += figures(report)
        lines.append(summary(report))
        return lines.joined(separator: "\n")
    }

    /// What the actions did by kind, the spread of out-degrees, and the fingerprints' odds.
    static func figures(_ report: ExploreReport) -> [String] {
        var lines: [String] = []
        let kinds = report.statistics.kindLines
        if !kinds.isEmpty { lines += ["actions by kind:"] + kinds.map { "  " + $0 } }
        if let spread = report.statistics.outDegreeText {
            lines.append("out-degree (other states a state's actions lead to): " + spread)
        }
        let expanded = report.states.filter(\.expanded).count
        lines.append("run twice for nondeterminism: the actions of \(report.rechecked) of \(expanded) expanded state\(expanded == 1 ? "" : "s") "
            + "(every state within depth \(ExploreOptions.recheckDepth), one in \(report.recheck) deeper)")
        lines.append("fingerprints: 64 bits for \(report.statesMet) state\(report.statesMet == 1 ? "" : "s") met; "
            + "the chance that two share one is about \(scientific(report.fingerprintCollisionOdds))")
        return lines
    }

    /// `4.2`: one decimal, without Foundation's formatting.
    static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `3.1e-14`, `0`: two significant digits, without Foundation's formatting.
    static func scientific(_ value: Double) -> String {
        guard value.isFinite, value > 1e-300 else { return "0" }
        var mantissa = value, exponent = 0
        while mantissa >= 10 { mantissa /= 10; exponent += 1 }
        while mantissa < 1 { mantissa *= 10; exponent -= 1 }
        var tenths = Int((mantissa * 10).rounded())
        if tenths >= 100 { tenths /= 10; exponent += 1 }
        return "\(tenths / 10).\(tenths % 10)e\(exponent)"
    }

    static func json(_ report: ExploreReport, reproFiles: [String?]) -> String {
        let findings: [JSONValue] = report.findings.enumerated().map { index, finding in
            var members: [String: JSONValue] = [
                "kind": .string(finding.kind.name), "number": .integer(Int64(finding.kind.rawValue)),
                "state": .integer(Int64(finding.state)), "path": .string(finding.path),
                "action": finding.action.map { .string($0.description) } ?? .null, "evidence": .string(finding.evidence),
                "reached_by": .array(report.actions(to: finding.state).map { .string($0.description) }),
                "repeats": .integer(Int64(index < report.repeats.count ? report.repeats[index] : 0)),
            ]
            if let node = finding.node { members["node"] = .string(node) }
            if index < reproFiles.count, let file = reproFiles[index] { members["repro"] = .string(file) }
            return .object(members)
        }
        return CanonicalJSON.text(of: .object([
            "app": .string(report.app), "states": .integer(Int64(report.states.count)),
            "states_met": .integer(Int64(report.statesMet)), "rechecked_states": .integer(Int64(report.rechecked)),
            "fingerprint_collision_probability": .number(report.fingerprintCollisionOdds),
            "statistics": report.statistics.json,
            "actions": .integer(Int64(report.transitions)),
            "screens": .integer(Int64(report.nodes.count)),
            "screens_shown": .array(report.nodes.filter(report.visitedNodes.contains).map { .string($0) }),
            "findings": .array(findings), "limits_reached": .array(report.limitsReached.map { .string($0) }),
        ]))
    }

    static func junit(_ report: ExploreReport, reproFiles: [String?]) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuite name=\"portolan explore \(xml(report.app))\" tests=\"\(max(1, report.findings.count))\" failures=\"\(report.findings.count)\">"]
        if report.findings.isEmpty {
            lines.append("  <testcase classname=\"explore\" name=\"\(xml(summary(report)))\"/>")
        }
        for (index, finding) in report.findings.enumerated() {
            let repro = index < reproFiles.count ? reproFiles[index].map { "\nrepro: \($0)" } ?? "" : ""
            lines.append("  <testcase classname=\"explore.\(finding.kind.name)\" name=\"\(xml(finding.path + (finding.action.map { " (\($0))" } ?? "")))\">")
            lines.append("    <failure message=\"\(xml(finding.kind.meaning))\">\(xml(finding.evidence + repro))</failure>")
            lines.append("  </testcase>")
        }
        lines.append("</testsuite>")
        return lines.joined(separator: "\n")
    }

    static func github(_ report: ExploreReport, reproFiles: [String?]) -> String {
        var lines: [String] = []
        for (index, finding) in report.findings.enumerated() {
            let repro = index < reproFiles.count ? reproFiles[index].map { " (repro: \($0))" } ?? "" : ""
            lines.append("::error file=\(property(report.app)),title=\(property("portolan explore: " + finding.kind.name))::"
                + data(finding.summary + repro))
        }
        lines.append(summary(report))
        return lines.joined(separator: "\n")
    }

    private static func xml(_ text: String) -> String { Escaping.xml(text) }

    /// A workflow command's message and properties, escaped as the runner decodes them, and never
    /// holding a command of their own (`CILogText`).
    private static func data(_ text: String) -> String { CILogText.safeInsideLine(Escaping.githubMessage(text)) }

    private static func property(_ text: String) -> String { CILogText.safeInsideLine(Escaping.githubProperty(text)) }
}
