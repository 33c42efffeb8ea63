import PortolanLua
import Lua

/// Runs an app script in a fresh sandboxed host set up for the linter (`CheckPrelude`), and returns
/// what it declared, or the findings that stop the check: a syntax error, a script that fails
/// before declaring anything, or no `portolan.app` at all.
enum AppRecorder {
    struct Outcome {
        var app: RecordedApp?
        var findings: [CheckFinding] = []
    }

    static func record(source: String, file: String, functions: [String: HostFunction] = [:]) async -> Outcome {
        let chunkName = "@" + file
        var outcome = Outcome()
        if let finding = syntaxError(in: source, file: file, chunkName: chunkName) {
            outcome.findings.append(finding)
            return outcome
        }
        let rewritten = NodeLineMarker.mark(source)
        // A rewrite that does not compile is never expected; lines then fall back to the app call's.
        let marked = (try? LuaState(sandboxed: true).load(rewritten, chunkName: chunkName)) == nil ? source : rewritten

        let host: PortolanHost
        do {
            var configuration = AppLoadLimits.configuration
            configuration.functions = functions
            host = try PortolanHost(configuration: configuration)
            await host.setOutput { _ in }
            _ = ShippingBytecode.checkPreludeInUse
            try await host.extendModule(
                running: checkPreludeSource, chunkName: checkPreludeChunkName,
                arguments: [.array(RootOption.allCases.map { .string($0.rawValue) })])
        } catch {
            outcome.findings.append(CheckFinding(.error, .loadError, file: file, line: 0, "the checker could not start: \(error)"))
            return outcome
        }

        var failure: HostError?
        do {
            try await AppLoadLimits.loadApp(host, file: file, source: marked)
        } catch {
            failure = error
        }
        if let failure {
            outcome.findings.append(scriptFailure(failure, file: file))
        }
        let collected: RecordedApp?
        do {
            collected = try await host.perform { host throws(HostError) in
                let report = try host.call("return __portolan_check_collect()", chunkName: checkPreludeChunkName)
                return Self.app(from: report.first ?? .nil, file: file)
            }
        } catch {
            outcome.findings.append(CheckFinding(.error, .loadError, file: file, line: 0, "could not read the declared app: \(error)"))
            return outcome
        }
        guard let app = collected else {
            if failure == nil {
                outcome.findings.append(CheckFinding(
                    .error, .noApp, file: file, line: 0, "the script never calls portolan.app { ... }: there is no app to check"))
            }
            return outcome
        }
        outcome.app = app
        return outcome
    }

    /// The syntax error that stops the check, if the script does not compile.
    private static func syntaxError(in source: String, file: String, chunkName: String) -> CheckFinding? {
        do {
            _ = try LuaState(sandboxed: true).load(source, chunkName: chunkName)
            return nil
        } catch {
            let location = LuaLocation(error.message, file: file)
            return CheckFinding(.error, .syntaxError, file: location.file, line: location.line, location.message)
        }
    }

    /// The finding for a script that failed while it declared its app.
    private static func scriptFailure(_ failure: HostError, file: String) -> CheckFinding {
        var location = LuaLocation(failure.message, file: file)
        if location.line == 0, let line = firstLine(in: failure.traceback, of: file) {
            // An error value without a position (a table raised by assert): the traceback knows.
            location.line = line
        }
        return CheckFinding(.error, .loadError, file: location.file, line: location.line, "the script failed: \(location.message)")
    }

    private static func app(from report: LuaValue, file: String) -> RecordedApp? {
        guard report["root"] != .nil else { return nil }
        var app = RecordedApp(
            root: RecordedNode(lua: report["root"]),
            appLine: appFileLine(report["where"], file: file) ?? 0,
            appCount: Int(report["apps"].intValue ?? 1))
        app.anywhere = (report["anywhere"].arrayValue ?? []).map { RecordedNode(lua: $0, isAnywhere: true) }
        if let type = report["anywhere_type"].stringValue, type != "table", type != "nil" { app.anywhereType = type }
        if report["declared"] == .boolean(false) { app.declarationError = report["why"].stringValue ?? "refused" }
        app.functionRuleCount = Int(report["function_rules"].intValue ?? 0)
        (app.options, app.optionMistakes) = AppOptions.each(lua: report["options"])
        for rule in report["rules"].arrayValue ?? [] {
            guard let from = rule["from"].stringValue, let to = rule["to"].stringValue else { continue }
            let location = LuaLocation(rule["where"].stringValue ?? "", file: file)
            // A call in tail position reports the module's own frame: no line to give then.
            let isSource = location.file == file || FilePaths.exists(location.file)
            app.redirectRules.append(RecordedRule(
                from: from, to: to, file: isSource ? location.file : file, line: isSource ? location.line : 0))
        }
        return app
    }

    /// The first line of `file` a traceback names.
    private static func firstLine(in traceback: String?, of file: String) -> Int? {
        for line in (traceback ?? "").split(separator: "\n") {
            let text = line.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            let location = LuaLocation(String(text), file: file)
            if location.file == file, location.line > 0 { return location.line }
        }
        return nil
    }

    /// The line of a `where` string when it is in the app file (not the module's, for a tail call).
    private static func appFileLine(_ value: LuaValue, file: String) -> Int? {
        let location = LuaLocation(value.stringValue ?? "", file: file)
        return location.file == file ? location.line : nil
    }
}

/// `file:line: message`, as Lua writes errors, split; the line is 0 when there is none.
struct LuaLocation {
    var file: String
    var line: Int
    var message: String

    /// `file` is the app file: a message naming it, in full or shortened by Lua (`...dir/app.lua`),
    /// keeps that spelling.
    init(_ text: String, file: String) {
        self.file = file
        self.line = 0
        self.message = text
        guard let match = text.firstMatch(of: /^([^\n]*?):([0-9]+):[ ]?/) else { return }
        let source = String(match.output.1)
        line = Int(match.output.2) ?? 0
        message = String(text[match.range.upperBound...])
        if source == file || (source.hasPrefix("...") && file.hasSuffix(source.dropFirst(3))) {
            self.file = file
        } else {
            self.file = source
        }
    }
}
