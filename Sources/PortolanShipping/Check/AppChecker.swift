import Lua
import PortolanLua
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan check`: lints an app script and reports every problem found, each at its file:line.
///
/// The script runs once, in a fresh sandboxed host whose `portolan.app` records the node tables
/// instead of stopping at the first mistake (`AppRecorder`); its source is read for what only the
/// text shows (`SourceFacts`); `AppLinter` then checks both. See docs/scenarios.md, "Linting", for
/// the lints.
public enum AppChecker {
    /// Checks the app script at `path` (as the user wrote it: findings name the file this way).
    /// `functions` are registered in the checker's host, as a live host registers them (a rules
    /// bundle's gate gives it the live host's).
    public static func check(file path: String, functions: [String: HostFunction] = [:]) async -> CheckReport {
        let source: String
        do {
            source = try readSource(path)
        } catch {
            return CheckReport(file: path, findings: [CheckFinding(.error, .loadError, file: path, line: 0, error.message)])
        }
        return await check(source: source, file: path, functions: functions)
    }

    /// Checks an app script given as text; `file` names it in findings (and in its own errors).
    public static func check(source: String, file: String, functions: [String: HostFunction] = [:]) async -> CheckReport {
        let recorded = await AppRecorder.record(source: source, file: file, functions: functions)
        var findings = recorded.findings
        if let app = recorded.app {
            if app.declarationError != nil {
                // The script went on without a graph; what failed next may be a consequence.
                findings = findings.map { finding in
                    guard finding.code == .loadError else { return finding }
                    return CheckFinding(finding.severity, finding.code, file: finding.file, line: finding.line,
                                        finding.message + " (portolan.app had refused the graph, so the script ran without one)")
                }
            }
            var linter = AppLinter(app: app, facts: SourceFacts(source: source), file: file)
            findings += linter.run()
        }
        return CheckReport(file: file, findings: findings)
    }

    /// The app's text, read as every loader reads a script (`LuaState.chunkBytes`): a regular file
    /// of at most `LuaState.maximumChunkFileSize`, its shebang line blanked.
    static func readSource(_ path: String) throws(LuaError) -> String {
        String(decoding: try LuaState.chunkBytes(contentsOfFile: path), as: UTF8.self)
    }

    package static func readFile(_ path: String) -> String? {
        try? readSource(path)
    }
}
