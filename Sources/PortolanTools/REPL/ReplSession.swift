import Lua
import Portolan
import PortolanLua
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
/// ``handle(_:)`` per line, shows ``prompt``, calls ``cancelInput()`` on Ctrl-C at a prompt,
/// ``complete(_:)`` on Tab, ``reloadIfChanged()`` every so often with `--watch`, and ``finish()``
/// at the end. To stop a running chunk, call `host.interruption.request()` from anywhere (a
/// signal handler). Colours are the ``ReplStyle``'s: none unless the caller asks.
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
    let write: @Sendable (String) -> Void
    /// How lines are coloured.
    public nonisolated let style: ReplStyle
    /// The app file given at the start (nil for the demo), as `:record` names it.
    let appArgument: String?
    /// The lines of a chunk that is not complete yet (lua.c's multi-line input).
    var pending: [String] = []
    /// The destination a `:plan` expression evaluated to, handed over by a Swift function.
    let captured = Capture<Result<RouteTarget, RouteFailure>>()
    /// What `portolan.match`, `route` or `plan` returned to a chunk the session ran for a URL.
    let outcome = Capture<LuaOutcome>()
    /// Records router events while a REPL route runs, to show redirects and queued routes.
    let recorder = Recorder()
    var observedRouter: ObjectIdentifier?
    /// Whether `:events on` is in force; read by the router observer.
    let showsEvents = Capture<Bool>()
    /// The route requests of the session, for `:history`.
    var routeHistory: [(label: String, report: RouteReport)] = []
    /// The scenario `:record` is writing, if any.
    var recording: ReplRecording?
    /// Files `portolan.load` ran, for `--watch` (the app file is watched too).
    let loadedFiles = Capture<[String]>()
    /// The files watched and how they were when last seen.
    var stamps: [String: FileStamp] = [:]

    /// The Lua function `:plan` calls with its destination; not meant for users.
    static let captureFunction = "__portolan_repl_destination"
    /// The Lua function URL chunks hand their results to; not meant for users.
    static let outcomeFunction = "__portolan_repl_outcome"
    /// The Lua function the wrapped `portolan.load` tells of the files it runs.
    static let loadedFunction = "__portolan_repl_loaded"

    /// A session on an app that `host` has already loaded (or will load through the prompt).
    /// Everything the session and Lua's `print` write goes to `output`, one call per message,
    /// without a trailing newline.
    public init(
        host: PortolanHost, appName: String, appFile: String? = nil, style: ReplStyle = .plain,
        output: @escaping @Sendable (String) -> Void
    ) async throws(HostError) {
        self.host = host
        self.appName = appName
        self.appArgument = appFile
        self.style = style
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
        let loaded = self.loadedFiles
        try await host.register(function: Self.loadedFunction) { arguments in
            if let path = arguments.first?.stringValue { loaded.value = (loaded.value ?? []) + [path] }
            return []
        }
        // Completion's key lister, and a `portolan.load` that says which files it runs (a tail
        // call, so that its errors still point at the caller's line).
        try await host.run(Self.keysSource + """

            function \(Self.compilesFunction)(source)
              \(Self.outcomeFunction)(load(source, "=stdin") and { "statement" } or {})
            end
            do
              local load = portolan.load
              portolan.load = function(path)
                if type(path) == "string" then \(Self.loadedFunction)(path) end
                return load(path)
              end
            end
            """, chunkName: "=repl")
    }

    /// A session on a new host that has loaded `appFile`, or the built-in demo app when it is nil.
    /// A script that does not load throws, with its `file:line: message`.
    public static func start(
        appFile: String?, configuration: HostConfiguration = .init(), style: ReplStyle = .plain,
        output: @escaping @Sendable (String) -> Void
    ) async throws(HostError) -> ReplSession {
        var configuration = configuration
        if let appFile, configuration.moduleDirectory == nil {
            // `require` finds the app's own modules next to it, as lua.c finds them in `.`.
            configuration.moduleDirectory = FilePaths.directory(of: appFile)
        }
        let host = try PortolanHost(configuration: configuration)
        let session = try await ReplSession(
            host: host, appName: appFile ?? "\(DemoApp.chunkName) (the built-in demo)", appFile: appFile,
            style: style, output: output)
        if let appFile {
            try await host.loadApp(file: appFile)
        } else {
            try await host.loadApp(source: DemoApp.source, chunkName: DemoApp.chunkName)
        }
        await session.noteFiles()
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

    /// Writes one message, coloured for its role.
    func say(_ text: String, _ role: ReplStyle.Role) {
        write(style.paint(text, role))
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
        await observeRouter()
        recorder.start()
        defer { _ = recorder.stop() }
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
        case .back:
            await back()
        case .history:
            showHistory()
        case .reload:
            await reload(reason: nil)
        case .record(let argument):
            await record(argument)
        case .events(let argument):
            events(argument)
        case .graph(let argument):
            await graph(argument)
        case .help:
            write(ReplInput.helpText)
        case .quit:
            await finish()
            return .quit
        case .unknown(let name):
            say("error: unknown command ':\(name)'; :help lists the commands", .error)
        }
        return .ready
    }

    /// Ends the session: stops a recording (its file is already written after every request).
    public func finish() async {
        if let recording {
            say("recorded \(recording.routeCount) route\(recording.routeCount == 1 ? "" : "s") to \(recording.path)", .note)
            self.recording = nil
        }
    }

    // MARK: Lua

    func evaluate(_ line: String) async -> Step {
        pending.append(line)
        let chunk = pending.joined(separator: "\n")
        var raised = false
        var interrupted = false
        do {
            let results = try await host.evaluate(chunk, chunkName: "=stdin")
            pending = []
            if !results.isEmpty {
                write(results.joined(separator: "\t"))
            }
        } catch {
            if error.isIncompleteInput {
                return .continuing
            }
            pending = []
            raised = true
            interrupted = error.isInterrupted
            say("error: \(error.message)", .error)
        }
        let routes = RouteReport.reports(from: recorder.snapshot())
        remember(routes, label: chunk)
        // A chunk stopped by Ctrl-C would not stop in the replay: it is left out.
        if recording != nil, !interrupted {
            await recordLua(chunk, raised: raised, routed: !routes.isEmpty)
        }
        // A chunk that declared an app (or loaded one) has a new router: watch it from now on.
        await observeRouter()
        return .ready
    }

    /// Remembers a Lua chunk for `:record`: replayed verbatim, unless it only reads a name.
    func recordLua(_ chunk: String, raised: Bool, routed: Bool) async {
        let trimmed = chunk.replTrimmed()
        let isPlainName = trimmed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        if isPlainName && !routed { return }
        outcome.value = nil
        _ = try? await host.run("\(Self.compilesFunction)(\(Self.luaLiteral(chunk)))", chunkName: "=repl")
        let statement = outcome.value?.values?.isEmpty == false
        recording?.append(.lua(chunk, statement: statement, raised: raised, routed: routed, activePath: await activeIDs()))
        saveRecording()
    }

    // MARK: Routes

    func route(_ text: String) async {
        switch await target(of: text) {
        case .idPath(let destination):
            await route(to: destination, label: text)
            return
        case .url:
            let result = await runURLChunk("portolan.route", text)
            let events = recorder.snapshot()
            remember(RouteReport.reports(from: events), label: text)
            guard let result else { return }
            showRoutes(events, result: { show(outcome: result) })
            if recording != nil {
                let outcome: ReplRecording.Outcome = result.values.map { .instructions($0) }
                    ?? .failed(kind: Self.kind(of: result.failure ?? ""))
                recording?.append(.route(destination: Self.luaLiteral(text), result: outcome, activePath: await activeIDs()))
                saveRecording()
            }
        case nil:
            return
        }
        await showActivePath()
    }

    /// Routes to a destination from Swift (an id path, `:back`), shows and remembers it.
    func route(to destination: Destination, label: String) async {
        let result = await host.route(destination)
        let events = recorder.snapshot()
        remember(RouteReport.reports(from: events), label: label)
        showRoutes(events, result: { show(result) })
        if recording != nil {
            let outcome: ReplRecording.Outcome
            switch result {
            case .success(let instructions): outcome = .instructions(instructions.map(\.description))
            case .failure(let failure): outcome = .failed(kind: failure.kind.rawValue)
            }
            recording?.append(.route(destination: ReplRecording.lua(destination), result: outcome, activePath: await activeIDs()))
            saveRecording()
        }
        await showActivePath()
    }

    /// The kind of a failure from its text (`handler_failed at enter x: ...`).
    static func kind(of failure: String) -> String {
        String(failure.prefix(while: { $0.isLetter || $0 == "_" }))
    }

    /// Shows the routes the events tell of, or `result` when the router saw none.
    func showRoutes(_ events: [RouterEvent], result: () -> Void) {
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

    func plan(_ text: String) async {
        guard !text.isEmpty else {
            say("error: :plan needs a destination, as in :plan /wishlist or :plan {\"root\", \"dashboard\"}", .error)
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
            say("error: \(error.message)", .error)
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
            say("error: the destination was not evaluated", .error)
            return
        }
        await showActivePath()
    }

    func planURL(_ text: String) async {
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
    enum Target {
        /// A URL a route pattern matches.
        case url
        /// An id path from the root, for a line no pattern matches.
        case idPath(Destination)
    }

    /// Matches a URL line as `portolan.match` does, and says what matched; falls back to an id
    /// path when nothing matches and the line starts with the root's id. Writes why and returns
    /// nil when the line leads nowhere.
    func target(of text: String) async -> Target? {
        outcome.value = nil
        do {
            try await host.run("""
                local match, err = portolan.match(\(Self.luaLiteral(text)))
                \(Self.outcomeFunction)(match and { match.node, match.pattern, match.url }, err and tostring(err))
                """, chunkName: "=url")
        } catch {
            say("error: \(error.message)", .error)
            return nil
        }
        guard let matched = outcome.value else {
            say("error: the URL was not matched", .error)
            return nil
        }
        if let values = matched.values, values.count == 3 {
            if values[2] != text { say("rewritten to \(values[2]) by the redirect rules", .note) }
            say("matched \(values[1]) (\(values[0]))", .note)
            return .url
        }
        // No pattern leads there: an id path from the root, if the line is one.
        if let rootID = await host.graph?.rootID, Self.firstSegment(of: text) == rootID {
            do {
                return .idPath(try IdPath.destination(text))
            } catch {
                say("error: \(error.message)", .error)
                return nil
            }
        }
        say("failed: \(matched.failure ?? "no route matches '\(text)'")", .error)
        await showActivePath()
        return nil
    }

    /// Runs `function(url)` (`portolan.route` or `portolan.plan`) from Lua, so that redirect rules
    /// written as Lua functions apply, and returns its result; nil when the chunk raised (written).
    func runURLChunk(_ function: String, _ url: String) async -> LuaOutcome? {
        outcome.value = nil
        do {
            try await host.run("""
                local done, err = \(function)(\(Self.luaLiteral(url)))
                \(Self.outcomeFunction)(done, err and tostring(err))
                """, chunkName: "=url")
        } catch {
            say("error: \(error.message)", .error)
            return nil
        }
        guard let result = outcome.value else {
            say("error: the URL was not routed", .error)
            return nil
        }
        return result
    }

    /// A result as Lua returned it: instructions, or a failure in its canonical text.
    func show(outcome: LuaOutcome) {
        if let instructions = outcome.values {
            for instruction in instructions { say("  \(instruction)", .instruction) }
            if instructions.isEmpty { write("(nothing to do)") }
        } else {
            say("failed: \(outcome.failure ?? "the route failed")", .error)
        }
    }
    func show(_ result: RouteResult) {
        switch result {
        case .success(let instructions):
            show(RouteReport(requested: nil, settled: nil, instructions: instructions, failure: nil))
        case .failure(let failure):
            show(RouteReport(requested: nil, settled: nil, instructions: failure.executed, failure: failure))
        }
    }

    func show(_ report: RouteReport) {
        if let settled = report.settled, let requested = report.requested, settled != requested {
            say("redirected to \(settled)", .note)
        }
        for instruction in report.instructions {
            say("  \(instruction)", .instruction)
        }
        if let failure = report.failure {
            say("failed: \(failure)", .error)
        } else if report.instructions.isEmpty {
            write("(nothing to do)")
        }
    }

    func showActivePath() async {
        guard let router = await host.router else {
            write("active: (no app declared yet: call portolan.app { ... })")
            return
        }
        say("active: " + router.activePath.map(\.description).joined(separator: " > "), .activePath)
    }

    func tree() async {
        guard let router = await host.router else {
            write("(no app declared yet: call portolan.app { ... })")
            return
        }
        write(GraphRenderer.activeTree(router.tree))
    }

    /// Observes the app's router if it is new (an app declared again, or reloaded, gets a new
    /// router): its events are recorded per line, and shown with `:events on`.
    func observeRouter() async {
        guard let router = await host.router, observedRouter != ObjectIdentifier(router) else { return }
        observedRouter = ObjectIdentifier(router)
        let recorder = self.recorder, showsEvents = self.showsEvents, write = self.write, style = self.style
        router.observe { event in
            recorder.record(event)
            if showsEvents.value == true {
                write(style.paint("· " + Self.describe(event), .event))
            }
        }
    }

    /// An event as `:events on` prints it.
    static func describe(_ event: RouterEvent) -> String {
        switch event {
        case .willRoute(let destination): return "will_route \(destination)"
        case .instruction(let instruction): return "instruction \(instruction)"
        case .didRoute(let destination, let executed):
            return "did_route \(destination) (\(executed.count) instruction\(executed.count == 1 ? "" : "s"))"
        case .failed(let destination, let failure): return "failed \(destination): \(failure)"
        case .hostReported(let instruction): return "host_reported \(instruction)"
        }
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
    static func firstSegment(of text: String) -> Substring {
        text.drop(while: { $0 == "/" }).prefix(while: { $0 != "/" && $0 != "{" && !$0.isWhitespace })
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
final class Capture<Value: Sendable>: Sendable {
    let storage = Mutex<Value?>(nil)

    init() {}

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
final class Recorder: Sendable {
    let state = Mutex<(recording: Bool, events: [RouterEvent])>((false, []))

    func start() {
        state.withLock { $0 = (true, []) }
    }

    func record(_ event: RouterEvent) {
        state.withLock { state in
            if state.recording { state.events.append(event) }
        }
    }

    /// What was seen since `start`, recording on.
    func snapshot() -> [RouterEvent] {
        state.withLock { $0.events }
    }

    /// Stops recording and returns what was seen.
    func stop() -> [RouterEvent] {
        state.withLock { state in
            defer { state = (false, []) }
            return state.events
        }
    }
}

