import Portolan
import PortolanLua

/// One problem `portolan check` found in an app, at the file and line that cause it.
public struct CheckFinding: Sendable, Equatable {
    public enum Severity: String, Sendable, Comparable {
        case error, warning

        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// What kind of problem: each lint has one stable code, for CI filters and the JSON output.
    public enum Code: String, Sendable, CaseIterable {
        case syntaxError = "syntax-error"
        case loadError = "load-error"
        case noApp = "no-app"
        case invalidNode = "invalid-node"
        case invalidOption = "invalid-option"
        case duplicateID = "duplicate-id"
        case activeNotChild = "active-not-child"
        case handlerNotFunction = "handler-not-function"
        case unknownHandler = "unknown-handler"
        case unknownField = "unknown-field"
        case handlerNeverRuns = "handler-never-runs"
        case unreachableNode = "unreachable-node"
        case invalidRoute = "invalid-route"
        case ambiguousRoute = "ambiguous-route"
        case shadowedRoute = "shadowed-route"
        case shadowedRedirectRule = "shadowed-redirect-rule"
        case deadRoute = "dead-route"
        case unknownNodeInGuard = "unknown-node-in-guard"
        case unknownNodeInRedirect = "unknown-node-in-redirect"
        case invalidRedirect = "invalid-redirect"
        case redirectIntoGuard = "redirect-into-guard"
        case webScheme = "web-scheme"
        case decisionSideEffect = "decision-side-effect"
        case invalidMigration = "invalid-migration"
        case unknownNodeInExplore = "unknown-node-in-explore"
    }

    public let severity: Severity
    public let code: Code
    public let file: String
    /// 1-based; 0 when no line is known.
    public let line: Int
    public let message: String

    public init(_ severity: Severity, _ code: Code, file: String, line: Int, _ message: String) {
        self.severity = severity
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    /// `app.lua:12: error: duplicate id 'movie' (first declared at line 8) [duplicate-id]`
    public var text: String {
        let place = line > 0 ? "\(file):\(line)" : file
        // One finding, one line, whatever an id or a message holds, and no command to a CI runner.
        return CILogText.safe(Escaping.visibleControls("\(place): \(severity.rawValue): \(message) [\(code.rawValue)]"))
    }
}

/// Everything `portolan check` found in one app file, in file and line order.
public struct CheckReport: Sendable, Equatable {
    public let file: String
    public let findings: [CheckFinding]

    public init(file: String, findings: [CheckFinding]) {
        self.file = file
        self.findings = findings.enumerated().sorted { a, b in
            // The app file first, then others; by line; a stable order for equal lines.
            let keyA = (a.element.file == file ? 0 : 1, a.element.file, a.element.line, a.offset)
            let keyB = (b.element.file == file ? 0 : 1, b.element.file, b.element.line, b.offset)
            return keyA < keyB
        }.map(\.element)
    }

    public var errorCount: Int { findings.count { $0.severity == .error } }
    public var warningCount: Int { findings.count { $0.severity == .warning } }
    public var hasErrors: Bool { errorCount > 0 }

    /// `N errors, N warnings`
    public var summary: String {
        "\(errorCount) error\(errorCount == 1 ? "" : "s"), \(warningCount) warning\(warningCount == 1 ? "" : "s")"
    }

    /// One line per finding, then the summary.
    public var text: String {
        (findings.map(\.text) + [summary]).joined(separator: "\n")
    }

    /// `{"file": …, "errors": N, "warnings": N, "findings": [{"severity", "code", "file", "line", "message"}]}`
    public var json: String {
        let items = findings.map { finding in
            "    {\"severity\": \(Escaping.jsonString(finding.severity.rawValue)), \"code\": \(Escaping.jsonString(finding.code.rawValue)), "
                + "\"file\": \(Escaping.jsonString(finding.file)), \"line\": \(finding.line), \"message\": \(Escaping.jsonString(finding.message))}"
        }
        let list = items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n  ]"
        // `##[` can only be inside a string, where `\u005B` means the same `[` (CILogText).
        return CILogText.safe("{\n  \"file\": \(Escaping.jsonString(file)),\n  \"errors\": \(errorCount),\n  \"warnings\": \(warningCount),\n"
            + "  \"findings\": \(list)\n}", as: .json)
    }
}
