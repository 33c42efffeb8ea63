import Portolan
import PortolanLua

/// What `:record FILE` remembers of a session, and the scenario file it writes.
///
/// A recording started mid-session first replays the Lua statements typed before it that ran
/// cleanly without routing (`login()`), then routes to where the session stood (the active path,
/// and the tabs it left deep), and expects that active path. Then every route request typed at the
/// prompt (a URL line, an id path, `:back`) becomes `expect(portolan.route(DEST), { instructions })`
/// followed by `expect(portolan.active_path(), { ids })`; a failed one expects its failure's kind. Lua typed at the prompt is replayed verbatim, in
/// order, because it may change what later routes do (`login()`); when it routed itself
/// (`portolan.route ...` at the prompt), the active path it left is expected after it. When the
/// app lies in the file's directory, the file loads it itself if `portolan test` was not given
/// `--app`, so it passes either way.
public struct ReplRecording: Sendable {
    /// One remembered thing, in the order it happened.
    enum Step: Sendable, Equatable {
        /// Lua typed at the prompt: `statement` when it compiles as one (else it was an expression),
        /// `raised` when it failed there, `routed` when it ran routes; `activePath` after it.
        case lua(String, statement: Bool, raised: Bool, routed: Bool, activePath: [String])
        /// A route request: the Lua call that asks for it (`portolan.route(…)`, `portolan.back()`)
        /// and what it did.
        case route(call: String, result: Outcome, activePath: [String])
        /// A comment (a reload).
        case note(String)
    }

    enum Outcome: Sendable, Equatable {
        case instructions([String])
        case failed(kind: String)
    }

    /// The file written.
    public let path: String
    /// The app as `portolan test --app` takes it (a path), or nil when the session had none.
    let app: String?
    /// How the header names the app.
    let appName: String
    /// Where the session stood when the recording started.
    struct Start: Sendable {
        /// Lua statements typed before, replayed first (`ReplRecorder`'s setup Lua), except those
        /// that only assign globals nothing reads (`setup`).
        var lua: [String] = []
        /// The names the app's files mention.
        var appNames: Set<String> = []
        /// The routes that get there from where the app starts (`RoutingTree.routesFromFreshTree`):
        /// none when the session stood where the app starts.
        var routes: [Destination] = []
        /// The active path they lead to.
        var activePath: [String] = []
    }

    let start: Start
    private(set) var steps: [Step] = []

    init(path: String, app: String?, appName: String, start: Start = Start()) {
        self.path = path
        self.app = app
        self.appName = appName
        self.start = start
    }

    mutating func append(_ step: Step) {
        steps.append(step)
    }

    /// The number of route requests remembered (a Lua chunk that routed counts once).
    var routeCount: Int {
        steps.filter { step in
            switch step {
            case .route: return true
            case .lua(_, _, _, let routed, _): return routed
            case .note: return false
            }
        }.count
    }

    /// The app's path from the directory of the file written, when the app lies inside it: the
    /// only way `portolan.load` may reach it from the file (ScriptFileConfinement).
    var appFromFileDirectory: String? {
        guard let app, let appPath = FilePaths.realPath(app),
              let directory = FilePaths.realPath(FilePaths.directory(of: path)) else { return nil }
        let prefix = directory == "/" ? "/" : directory + "/"
        guard appPath.hasPrefix(prefix) else { return nil }
        return String(appPath.dropFirst(prefix.count))
    }

    /// The scenario file's text.
    var text: String {
        var lines: [String] = []
        lines.append(LuaSource.comment("Recorded by the Portolan REPL on \(appName)."))
        if let app {
            lines.append(LuaSource.comment("Run with: portolan test --app \(app) \(path)"))
            if let beside = appFromFileDirectory {
                lines.append("-- (without --app, the file loads the app itself, from its own directory)")
                lines.append("if not pcall(portolan.active_path) then portolan.load(\(LuaSource.string(beside))) end")
            } else {
                lines.append("-- (the app is outside this file's directory, where portolan.load may not reach: give --app)")
            }
        }
        lines.append("")
        lines.append("scenario(\"recorded session\", function()")
        let setup = self.setup
        if !setup.isEmpty {
            lines.append("  -- The Lua typed before the recording started, which may change what routes do.")
            lines += setup.flatMap { Self.replay($0, statement: true) }
        }
        if !start.routes.isEmpty {
            lines.append("  -- Where the session stood when the recording started: get there first.")
            lines += start.routes.map { "  portolan.route(\(LuaSource.destination($0)))" }
            lines.append("  expect(portolan.active_path(), \(Self.list(start.activePath)), \"where the recording started\")")
        }
        for step in steps {
            switch step {
            case .lua(let chunk, let statement, let raised, let routed, let activePath):
                if raised {
                    let source = statement ? chunk : "return " + chunk
                    lines.append("  pcall(load(\(LuaSource.string(source)), \"=stdin\"))  -- raised an error at the prompt")
                } else {
                    lines.append(contentsOf: Self.replay(chunk, statement: statement))
                }
                if routed {
                    lines.append("  expect(portolan.active_path(), \(Self.list(activePath)))")
                }
            case .route(let call, let result, let activePath):
                switch result {
                case .instructions(let instructions):
                    lines.append("  expect(\(call), \(Self.list(instructions)))")
                case .failed(let kind):
                    lines.append("  do")
                    lines.append("    local _, err = \(call)")
                    lines.append("    expect(err and err.kind, \(LuaSource.string(kind)))")
                    lines.append("  end")
                }
                lines.append("  expect(portolan.active_path(), \(Self.list(activePath)))")
            case .note(let text):
                lines.append("  -- \(text)")
            }
        }
        lines.append("end)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The setup the file replays: the statements typed before the recording, without those
    /// that only assign globals (`x = 1`, `function f() … end`) which neither the app's files nor
    /// any line replayed after them mention.
    var setup: [String] {
        var mentioned = start.appNames
        for step in steps {
            switch step {
            case .lua(let chunk, _, _, _, _): mentioned.formUnion(RecordedLua(chunk).names)
            case .route(let call, _, _): mentioned.formUnion(RecordedLua(call).names)
            case .note: break
            }
        }
        var kept: [String] = []
        for chunk in start.lua.reversed() {
            let reading = RecordedLua(chunk)
            if let assigned = reading.assignedGlobals, assigned.isDisjoint(with: mentioned) { continue }
            mentioned.formUnion(reading.names)
            kept.append(chunk)
        }
        return kept.reversed()
    }

    /// A chunk as a line of the scenario's function: statements as they are (in a `do` block
    /// when they declare locals, which lived for one line at the prompt), expressions assigned
    /// to `_`.
    private static func replay(_ chunk: String, statement: Bool) -> [String] {
        let trimmed = chunk.replTrimmed()
        var body: String
        if !statement {
            body = "local _ = " + trimmed
        } else if trimmed.hasPrefix("return") {
            body = "local _ = (function() " + trimmed + " end)()"
        } else {
            body = trimmed
        }
        let hasLongBracket = body.contains("[[") || body.contains("[=")
        let needsBlock = !statement || Self.mentionsLocal(trimmed) || trimmed.hasPrefix("return")
        var lines = hasLongBracket ? [body] : body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if needsBlock {
            lines[0] = "do " + lines[0]
            lines[lines.count - 1] += " end"
        }
        lines[0] = "  " + lines[0]
        if !hasLongBracket {
            for index in lines.indices.dropFirst() { lines[index] = "  " + lines[index] }
        }
        return lines
    }

    private static func mentionsLocal(_ text: String) -> Bool {
        var word = ""
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                if word == "local" { return true }
                word = ""
            }
        }
        return false
    }

    private static func list(_ strings: [String]) -> String {
        strings.isEmpty ? "{}" : "{ " + strings.map(LuaSource.string).joined(separator: ", ") + " }"
    }

    /// Writes the file whole (`WholeFile`).
    func write() throws(HostError) {
        do {
            try WholeFile.write(text, to: path)
        } catch {
            throw HostError(error.description)
        }
    }
}
