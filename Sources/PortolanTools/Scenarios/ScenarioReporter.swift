import Portolan
import PortolanLua
import PortolanShipping

/// Turns scenario results into a report, as text that a caller writes to standard output.
///
/// Results arrive one at a time, as they are known, so text and TAP stream; JUnit, whose counts
/// come first, writes everything at the end.
public protocol ScenarioReporter {
    /// Text to write before the first result, if any.
    mutating func begin() -> String?
    /// Text to write for one result, if any.
    mutating func report(_ result: ScenarioResult) -> String?
    /// Text to write at the end, once every result was reported.
    mutating func finish(_ summary: ScenarioSummary) -> String?
}

/// The report formats of `portolan test --format`.
public enum ScenarioFormat: String, Sendable, CaseIterable {
    case text
    case tap
    case junit

    /// The format's reporter, whose every line is safe in a CI log (`CILogText`); `verbose` shows
    /// what passing scenarios printed too (`--verbose`).
    public func makeReporter(verbose: Bool = false) -> any ScenarioReporter {
        switch self {
        case .text: CILogSafeReporter(TextScenarioReporter(verbose: verbose), notation: notation)
        case .tap: CILogSafeReporter(TAPScenarioReporter(verbose: verbose), notation: notation)
        case .junit: CILogSafeReporter(JUnitScenarioReporter(verbose: verbose), notation: notation)
        }
    }

    /// The notation the format's escapes are written in (`CILogText`): TAP's YAML, JUnit's XML.
    public var notation: CILogText.Notation {
        switch self {
        case .text: .text
        case .tap: .yaml
        case .junit: .xml
        }
    }
}

/// A reporter whose text goes through `CILogText` before anyone writes it: a failure's message or
/// a scenario's output cannot give the CI runner commands, whatever the format.
struct CILogSafeReporter<Reporter: ScenarioReporter>: ScenarioReporter {
    private var reporter: Reporter
    private let notation: CILogText.Notation

    init(_ reporter: Reporter, notation: CILogText.Notation) {
        self.reporter = reporter
        self.notation = notation
    }

    mutating func begin() -> String? { reporter.begin().map { CILogText.safe($0, as: notation) } }

    mutating func report(_ result: ScenarioResult) -> String? {
        reporter.report(result).map { CILogText.safe($0, as: notation) }
    }

    mutating func finish(_ summary: ScenarioSummary) -> String? {
        reporter.finish(summary).map { CILogText.safe($0, as: notation) }
    }
}

extension ScenarioResult {
    /// The failure message, the routes the scenario ran and what it printed, as lines; empty for
    /// a passed scenario.
    var detailLines: [String] {
        guard case .failed(let message) = outcome else { return [] }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + sectionLines
    }

    /// The routes run and the output, under their headings: what JUnit puts in `system-out`.
    var sectionLines: [String] {
        var lines: [String] = []
        if !routes.isEmpty {
            lines.append("routes:")
            lines += routes.map { "  " + $0 }
        }
        return lines + outputLines
    }

    /// What the scenario printed, under its heading; what `--verbose` shows of a passing one.
    var outputLines: [String] {
        guard !output.isEmpty else { return [] }
        return ["output:"] + output.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "  | " + $0 }
    }

    /// A failure's first line, and when it ends in a colon (a diff's header: `events differ; -
    /// expected, + actual:`) the first differing line under it too (`- …` or `+ …`, past the
    /// matching lines shown for context), so that a CI summary showing only this says what differed.
    var failureHeadline: String {
        guard case .failed(let message) = outcome else { return "" }
        let lines = message.split(separator: "\n")
        guard let first = lines.first else { return "" }
        let body = lines.dropFirst()
        guard first.hasSuffix(":"), !body.isEmpty else { return String(first) }
        // A diff's own lines stand at the least indentation under the header; its context lines, two further.
        let indent = body.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        let differing = body.first { line in
            let marked = line.dropFirst(indent)
            return marked.hasPrefix("- ") || marked.hasPrefix("+ ")
        }
        return first + " " + (differing ?? body[body.startIndex]).drop(while: { $0 == " " })
    }
}

/// One line per scenario (`ok   `, `FAIL `, `skip `), a failure's message and output indented
/// below it, then the closing line `N passed, N failed[, N skipped]`.
public struct TextScenarioReporter: ScenarioReporter {
    /// Whether a passing scenario's output is shown under it.
    private let verbose: Bool

    public init(verbose: Bool = false) {
        self.verbose = verbose
    }

    public func begin() -> String? { nil }

    public func report(_ result: ScenarioResult) -> String? {
        switch result.outcome {
        case .passed:
            let output = verbose ? result.outputLines.map { "     " + Self.visible($0) } : []
            return (["ok   " + Self.visible(result.title)] + output).joined(separator: "\n")
        case .skipped(let reason):
            return "skip " + Self.visible(result.title) + (reason.isEmpty ? "" : " (\(Self.visible(reason)))")
        case .failed:
            return (["FAIL " + Self.visible(result.title)] + result.detailLines.map { "     " + Self.visible($0) })
                .joined(separator: "\n")
        }
    }

    /// The counts, alone on the last line, after what the selection left out, if anything.
    public func finish(_ summary: ScenarioSummary) -> String? {
        (summary.narrowing.map { "\($0)\n" } ?? "") + summary.description
    }

    /// A line as the terminal gets it: no control character but a tab is written raw.
    private static func visible(_ text: String) -> String {
        Escaping.visibleControls(text, keeping: ["\t"])
    }
}

/// TAP version 14: a result line per scenario (`ok 1 - file: name`), a YAML block under each
/// failure, `# SKIP` directives, and the plan `1..N` at the end.
public struct TAPScenarioReporter: ScenarioReporter {
    private var count = 0
    /// Whether a passing scenario's output gets a YAML block too.
    private let verbose: Bool

    public init(verbose: Bool = false) {
        self.verbose = verbose
    }

    public func begin() -> String? { "TAP version 14" }

    public mutating func report(_ result: ScenarioResult) -> String? {
        count += 1
        let description = Self.escape(result.title)
        switch result.outcome {
        case .passed:
            guard verbose, !result.output.isEmpty else { return "ok \(count) - \(description)" }
            return (["ok \(count) - \(description)", "  ---"] + Self.block("output", result.output.joined(separator: "\n"))
                + ["  ..."]).joined(separator: "\n")
        case .skipped(let reason):
            return "ok \(count) - \(description) # SKIP" + (reason.isEmpty ? "" : " " + Self.escape(reason))
        case .failed(let message):
            var lines = ["not ok \(count) - \(description)", "  ---"]
            lines += Self.block("message", message)
            if !result.routes.isEmpty {
                lines.append("  routes:")
                lines += result.routes.map { "    - " + Self.quoted($0) }
            }
            if !result.output.isEmpty {
                lines += Self.block("output", result.output.joined(separator: "\n"))
            }
            lines.append("  ...")
            return lines.joined(separator: "\n")
        }
    }

    public func finish(_ summary: ScenarioSummary) -> String? {
        "1..\(count)\n" + (summary.narrowing.map { "# \($0)\n" } ?? "") + "# " + summary.description
    }

    /// `#` and `\` would start a directive or an escape in a description; controls are shown.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in Escaping.visibleControls(text, keeping: ["\n", "\r"]) {
            switch character {
            case "\\": escaped += "\\\\"
            case "#": escaped += "\\#"
            case "\n", "\r": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A YAML double-quoted scalar: `"` and `\` escaped, controls as `\xNN`.
    static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": quoted += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// A YAML literal block scalar, indented under the `---` of the result.
    static func block(_ key: String, _ text: String) -> [String] {
        // YAML allows a tab in a block scalar, and no other control character.
        ["  \(key): |"] + Escaping.visibleControls(text, keeping: ["\n", "\t"])
            .split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    }
}

/// JUnit XML: `testsuites`, a `testsuite` per file, a `testcase` per scenario with `failure` or
/// `skipped`, and a failure's output in `system-out`.
public struct JUnitScenarioReporter: ScenarioReporter {
    private var results: [ScenarioResult] = []
    /// Whether a passing scenario's output goes in its `system-out` too.
    private let verbose: Bool

    public init(verbose: Bool = false) {
        self.verbose = verbose
    }

    public func begin() -> String? { nil }

    public mutating func report(_ result: ScenarioResult) -> String? {
        results.append(result)
        return nil
    }

    public func finish(_ summary: ScenarioSummary) -> String? {
        var files: [String] = []
        var byFile: [String: [ScenarioResult]] = [:]
        for result in results {
            if byFile[result.file] == nil { files.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        let total = results.reduce(Duration.zero) { $0 + $1.duration }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="portolan" tests="\#(summary.total)" failures="\#(summary.failed)" errors="0" skipped="\#(summary.skipped)" time="\#(Self.time(total))">"#,
        ]
        for file in files {
            let cases = byFile[file] ?? []
            let counts = ScenarioSummary(cases)
            let time = cases.reduce(Duration.zero) { $0 + $1.duration }
            lines.append(
                #"  <testsuite name="\#(Escaping.xml(file))" tests="\#(counts.total)" failures="\#(counts.failed)" errors="0" skipped="\#(counts.skipped)" time="\#(Self.time(time))">"#)
            for result in cases {
                let open = #"    <testcase name="\#(Escaping.xml(result.name))" classname="\#(Escaping.xml(file))" time="\#(Self.time(result.duration))""#
                switch result.outcome {
                case .passed where verbose && !result.output.isEmpty:
                    lines.append(open + ">")
                    lines.append("      <system-out>\(Escaping.xml(result.outputLines.joined(separator: "\n")))</system-out>")
                    lines.append("    </testcase>")
                case .passed:
                    lines.append(open + "/>")
                case .skipped(let reason):
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(Escaping.xml(reason))"/>"#)
                    lines.append("    </testcase>")
                case .failed(let message):
                    lines.append(open + ">")
                    lines.append(#"      <failure message="\#(Escaping.xml(result.failureHeadline))">\#(Escaping.xml(message))</failure>"#)
                    if !result.sectionLines.isEmpty {
                        lines.append("      <system-out>\(Escaping.xml(result.sectionLines.joined(separator: "\n")))</system-out>")
                    }
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n")
    }


    static func time(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
