import Lua
import Portolan
import Synchronization

/// The REPL without a terminal: lines in, lines of output out.
///
/// Lua is evaluated as lua.c does: an expression's results are printed (tab-separated), a
/// statement is run, a chunk that ends in the middle of a statement (`<eof>`) waits for the next
/// line, and an error is printed as `error: stdin:1: ...` while the session goes on. Lines that
/// start a chunk with `/`, `scheme://` or `:` are shortcuts (``ReplInput``). Nothing a user types
/// ends the session but `:quit` (and the end of input, which the caller sees).
///
/// A URL line is routed as `portolan.route(url)` routes it from Lua (redirect rules given as Lua
/// functions included), after a line naming the pattern that matched. When no pattern matches and
/// the line starts with the root's id (`/root/dashboard`), it is an id path instead, routed by ids
/// from the root: that is how apps without routes, and nodes without one, are reached.
///
/// The terminal side (reading lines, prompts, Ctrl-C) is the `portolan repl` command's; it calls
/// ``handle(_:)`` per line, shows ``prompt``, and calls ``cancelInput()`` on Ctrl-C at a prompt.
/// To stop a running chunk, call `host.interruption.request()` from anywhere (a signal handler).
public actor ReplSession {
    /// What the session expects after a line.
    public enum Step: Sendable, Equatable {
        /// A fresh chunk: show the main prompt.
        case ready
        /// The chunk is incomplete: show the continuation prompt and read another line.
        case continuing
        /// `:quit`: end the session.
        case quit
    }

    public static let mainPrompt = "portolan> "
    public static let continuationPrompt = "...> "

    /// The host the session drives; its `interruption` stops a running chunk.
    public nonisolated let host: PortolanHost
    /// How the banner names the app: its path, or the demo's.
    public nonisolated let appName: String
    private let write: @Sendable (String) -> Void
    /// The lines of a chunk that is not complete yet (lua.c's multi-line input).
    private var pending: [String] = []
    /// The destination a `:plan` expression evaluated to, handed over by a Swift function.
    private let captured = Capture<Result<RouteTarget, RouteFailure>>()
    /// What `portolan.match`, `route` or `plan` returned to a chunk the session ran for a URL.
    private let outcome = Capture<LuaOutcome>()
    /// Records router events while a REPL route runs, to show redirects and queued routes.
    private let recorder = Recorder()
    private var observedRouter: ObjectIdentifier?

    /// The Lua function `:plan` calls with its destination; not meant for users.
    static let captureFunction = "__portolan_repl_destination"
    /// The Lua function URL chunks hand their results to; not meant for users.
    static let outcomeFunction = "__portolan_repl_outcome"

    /// A session on an app that `host` has already loaded (or will load through the prompt).
    /// Everything the session and Lua's `print` write goes to `output`, one call per message,
    /// without a trailing newline.
    public init(host: PortolanHost, appName: String, output: @escaping @Sendable (String) -> Void) async throws(HostError) {
        self.host = host
        self.appName = appName
        self.write = output
        await host.setOutput(output)
        let captured = self.captured
        try await host.register(function: Self.captureFunction) { arguments in
            captured.value = Result { () throws(RouteFailure) in try RouteTarget(lua: arguments.first ?? .nil) }
            return []
        }
        let outcome = self.outcome
        try await host.register(function: Self.outcomeFunction) { arguments in
            outcome.value = LuaOutcome(arguments)
            return []
        }
    }

    /// A session on a new host that has loaded `appFile`, or the built-in demo app when it is nil.
    /// A script that does not load throws, with its `file:line: message`.
    public static func start(
        appFile: String?, configuration: HostConfiguration = .init(),
        output: @escaping @Sendable (String) -> Void
    ) async throws(HostError) -> ReplSession {
        var configuration = configuration
        if let appFile, configuration.moduleDirectory == nil {
            // `require` finds the app's own modules next to it, as lua.c finds them in `.`.
            configuration.moduleDirectory = directory(of: appFile)
        }
        let host = try PortolanHost(configuration: configuration)
        let session = try await ReplSession(
            host: host, appName: appFile ?? "\(DemoApp.chunkName) (the built-in demo)", output: output)
        if let appFile {
            try await host.loadApp(file: appFile)
        } else {
            try await host.loadApp(source: DemoApp.source, chunkName: DemoApp.chunkName)
        }
        return session
    }

    /// One line to greet the user with.
    public nonisolated var banner: String {
        "Portolan REPL on \(appName). :help for help, :quit to leave."
    }

    /// The prompt to show before the next line.
    public var prompt: String {
        pending.isEmpty ? Self.mainPrompt : Self.continuationPrompt
    }

    /// Whether an incomplete chunk waits for more lines.
    public var isContinuing: Bool { !pending.isEmpty }

    /// Drops an incomplete chunk (Ctrl-C at a prompt).
    public func cancelInput() {
        pending = []
    }

    /// Handles one line of input (without its newline).
    @discardableResult
    public func handle(_ line: String) async -> Step {
        if !pending.isEmpty {
            return await evaluate(line)
        }
        switch ReplInput(line: line) {
        case .empty:
            return .ready
        case .lua(let source):
            return await evaluate(source)
        case .route(let text):
            await route(text)
        case .plan(let text):
            await plan(text)
        case .tree:
            await tree()
        case .help:
            write(ReplInput.helpText)
        case .quit:
            return .quit
        case .unknown(let name):
            write("error: unknown command ':\(name)'; :help lists the commands")
        }
        return .ready
    }

    // MARK: Lua

    private func evaluate(_ line: String) async -> Step {
        pending.append(line)
        let chunk = pending.joined(separator: "\n")
        do {
            let results = try await host.evaluate(chunk, chunkName: "=stdin")
            pending = []
            if !results.isEmpty {
                write(results.joined(separator: "\t"))
            }
            return .ready
        } catch {
            if error.isIncompleteInput {
                return .continuing
            }
            pending = []
            write("error: \(error.message)")
            return .ready
        }
    }

    // MARK: Routes

    private func route(_ text: String) async {
        switch await target(of: text) {
        case .idPath(let destination):
            await startRecording()
            let result = await host.route(destination)
            showRoutes(recorder.stop(), result: { show(result) })
        case .url:
            await startRecording()
            let result = await runURLChunk("portolan.route", text)
            let events = recorder.stop()
            guard let result else { return }
            showRoutes(events, result: { show(outcome: result) })
        case nil:
            return
        }
        await showActivePath()
    }

    /// Shows the routes the events tell of, or `result` when the router saw none.
    private func showRoutes(_ events: [RouterEvent], result: () -> Void) {
        let routes = RouteReport.reports(from: events)
        if routes.isEmpty {
            // The router never saw the route (no app declared, a URL that leads nowhere): only
            // the result tells.
            result()
        } else {
            for (index, report) in routes.enumerated() {
                if index > 0, let requested = report.requested { write("then, queued meanwhile: \(requested)") }
                show(report)
            }
        }
    }

    private func plan(_ text: String) async {
        guard !text.isEmpty else {
            write("error: :plan needs a destination, as in :plan /wishlist or :plan {\"root\", \"dashboard\"}")
            return
        }
        if ReplInput.isURL(text) {
            await planURL(text)
            return
        }
        captured.value = nil
        do {
            // `:plan EXPR` is `__portolan_repl_destination(EXPR)`: errors keep line 1 of the input.
            try await host.run("\(Self.captureFunction)(\(text))", chunkName: "=plan")
        } catch {
            write("error: \(error.message)")
            return
        }
        switch captured.value {
        case .success(.destination(let destination)):
            show(await host.plan(destination))
        case .success(.url(let url)):
            // `:plan "/wishlist"`: a string that is a URL, as portolan.plan takes it.
            await planURL(url)
            return
        case .failure(let failure):
            show(.failure(failure))
        case nil:
            write("error: the destination was not evaluated")
            return
        }
        await showActivePath()
    }

    private func planURL(_ text: String) async {
        switch await target(of: text) {
        case .idPath(let destination):
            show(await host.plan(destination))
        case .url:
            guard let result = await runURLChunk("portolan.plan", text) else { return }
            show(outcome: result)
        case nil:
            return
        }
        await showActivePath()
    }

    /// What a URL line names, as `route` and `:plan` take it.
    private enum Target {
        /// A URL a route pattern matches.
        case url
        /// An id path from the root, for a line no pattern matches.
        case idPath(Destination)
    }

    /// Matches a URL line as `portolan.match` does, and says what matched; falls back to an id
    /// path when nothing matches and the line starts with the root's id. Writes why and returns
    /// nil when the line leads nowhere.
    private func target(of text: String) async -> Target? {
        outcome.value = nil
        do {
            try await host.run("""
                local match, err = portolan.match(\(Self.luaLiteral(text)))
                \(Self.outcomeFunction)(match and { match.node, match.pattern, match.url }, err and tostring(err))
                """, chunkName: "=url")
        } catch {
            write("error: \(error.message)")
            return nil
        }
        guard let matched = outcome.value else {
            write("error: the URL was not matched")
            return nil
        }
        if let values = matched.values, values.count == 3 {
            if values[2] != text { write("rewritten to \(values[2]) by the redirect rules") }
            write("matched \(values[1]) (\(values[0]))")
            return .url
        }
        // No pattern leads there: an id path from the root, if the line is one.
        if let rootID = await host.graph?.rootID, Self.firstSegment(of: text) == rootID {
            do {
                return .idPath(try IdPath.destination(text))
            } catch {
                write("error: \(error.message)")
                return nil
            }
        }
        write("failed: \(matched.failure ?? "no route matches '\(text)'")")
        await showActivePath()
        return nil
    }

    /// Runs `function(url)` (`portolan.route` or `portolan.plan`) from Lua, so that redirect rules
    /// written as Lua functions apply, and returns its result; nil when the chunk raised (written).
    private func runURLChunk(_ function: String, _ url: String) async -> LuaOutcome? {
        outcome.value = nil
        do {
            try await host.run("""
                local done, err = \(function)(\(Self.luaLiteral(url)))
                \(Self.outcomeFunction)(done, err and tostring(err))
                """, chunkName: "=url")
        } catch {
            write("error: \(error.message)")
            return nil
        }
        guard let result = outcome.value else {
            write("error: the URL was not routed")
            return nil
        }
        return result
    }

    /// A result as Lua returned it: instructions, or a failure in its canonical text.
    private func show(outcome: LuaOutcome) {
        if let instructions = outcome.values {
            for instruction in instructions { write("  \(instruction)") }
            if instructions.isEmpty { write("(nothing to do)") }
        } else {
            write("failed: \(outcome.failure ?? "the route failed")")
        }
    }
    private func show(_ result: RouteResult) {
        switch result {
        case .success(let instructions):
            show(RouteReport(requested: nil, settled: nil, instructions: instructions, failure: nil))
        case .failure(let failure):
            show(RouteReport(requested: nil, settled: nil, instructions: failure.executed, failure: failure))
        }
    }

    private func show(_ report: RouteReport) {
        if let settled = report.settled, let requested = report.requested, settled != requested {
            write("redirected to \(settled)")
        }
        for instruction in report.instructions {
            write("  \(instruction)")
        }
        if let failure = report.failure {
            write("failed: \(failure)")
        } else if report.instructions.isEmpty {
            write("(nothing to do)")
        }
    }

    private func showActivePath() async {
        guard let router = await host.router else {
            write("active: (no app declared yet: call portolan.app { ... })")
            return
        }
        write("active: " + router.activePath.map(\.description).joined(separator: " > "))
    }

    private func tree() async {
        guard let router = await host.router else {
            write("(no app declared yet: call portolan.app { ... })")
            return
        }
        write(TreeRenderer.text(router.tree))
    }

    /// Starts recording the events of the app's router, observing it first if it is new (an app
    /// declared again gets a new router).
    private func startRecording() async {
        guard let router = await host.router else { return }
        if observedRouter != ObjectIdentifier(router) {
            observedRouter = ObjectIdentifier(router)
            let recorder = self.recorder
            router.observe { recorder.record($0) }
        }
        recorder.start()
    }

    /// `text` as a Lua string literal: quotes, backslashes and control characters escaped.
    static func luaLiteral(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case 0..<0x20, 0x7F:
                // `\ddd`, three digits, so that a digit after it is not read as part of it.
                let digits = Array(String(byte).utf8)
                bytes += [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "0"), count: 3 - digits.count) + digits
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first id of an id path (`root` in `/root/a` and in `/root{x=1}/a`).
    private static func firstSegment(of text: String) -> Substring {
        text.drop(while: { $0 == "/" }).prefix(while: { $0 != "/" && $0 != "{" && !$0.isWhitespace })
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// One route as the REPL shows it, rebuilt from the router's events.
struct RouteReport {
    var requested: Destination?
    var settled: Destination?
    var instructions: [Instruction]
    var failure: RouteFailure?

    /// The routes the events tell of, in order: the one asked for, then any queued meanwhile.
    static func reports(from events: [RouterEvent]) -> [RouteReport] {
        var reports: [RouteReport] = []
        for event in events {
            switch event {
            case .willRoute(let destination):
                reports.append(RouteReport(requested: destination, settled: nil, instructions: [], failure: nil))
            case .instruction(let instruction):
                reports.indices.last.map { reports[$0].instructions.append(instruction) }
            case .didRoute(let destination, _):
                reports.indices.last.map { reports[$0].settled = destination }
            case .failed(let destination, let failure):
                reports.indices.last.map {
                    reports[$0].settled = destination
                    reports[$0].failure = failure
                }
            case .hostReported:
                break
            }
        }
        return reports
    }
}

/// A value a Swift function called from Lua hands to the session.
private final class Capture<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// What a chunk the session ran for a URL handed over: `values` (a list of strings, as
/// `portolan.route` returns its instructions), or `failure`, an error's text.
struct LuaOutcome: Sendable, Equatable {
    var values: [String]?
    var failure: String?

    init(_ arguments: [LuaValue]) {
        if case .table(let table)? = arguments.first {
            values = (0..<table.count).compactMap { table[.integer(Int64($0 + 1))]?.stringValue }
        }
        if arguments.count > 1 { failure = arguments[1].stringValue }
    }
}

/// Router events seen while recording.
private final class Recorder: Sendable {
    private let state = Mutex<(recording: Bool, events: [RouterEvent])>((false, []))

    func start() {
        state.withLock { $0 = (true, []) }
    }

    func record(_ event: RouterEvent) {
        state.withLock { state in
            if state.recording { state.events.append(event) }
        }
    }

    /// Stops recording and returns what was seen.
    func stop() -> [RouterEvent] {
        state.withLock { state in
            defer { state = (false, []) }
            return state.events
        }
    }
}

