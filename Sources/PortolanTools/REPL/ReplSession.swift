import Lua
import Portolan
import PortolanLua
import PortolanShipping

/// The REPL without a terminal: lines in, lines of output out.
///
/// Lua is evaluated as lua.c does (``ChunkEvaluator``, over a ``ChunkAccumulator``). Lines that start a chunk with `/`,
/// `scheme://` or `:` are shortcuts (``ReplInput``). Nothing a user types ends the session but
/// `:quit` (and the end of input, which the caller sees).
///
/// The session drives the host through its Swift API: a URL line is resolved once, with the
/// app's redirect rules (those written as Lua functions included), and routed as resolved. When
/// no pattern matches and the line starts with the root's id (`/root/dashboard`), it is an id
/// path instead, routed by ids from the root: that is how apps without routes, and nodes
/// without one, are reached. Lua runs only where the user's own code does: a typed chunk, a
/// handler, guard, interceptor, observer or redirect rule.
///
/// The session is lua.c's line loop, small and not reentrant: it takes one input at a time (a
/// line, a `--watch` reload, the end of input), in the order they came (``InputTurnstile``), and
/// hands each to the part whose job it is: Lua to the ``ChunkEvaluator``, routes and `:plan` to the
/// ``RouteConsole``, `:tree`, `:graph` and `:history` to the ``RouterViews``, `:record` to the
/// ``ReplRecorder``, `:reload` and `--watch` to the ``AppReloader``. The ``RouterEventTap`` logs
/// the router's events per input; the ``ReplObservers`` are told what each input did; everything
/// shown goes through the ``ReplPrinter``.
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
    private let printer: ReplPrinter
    /// Lets one input through at a time: a line, a `--watch` reload, the end of input.
    private let turnstile = InputTurnstile()
    private let lua: ChunkEvaluator
    private let console: RouteConsole
    private let views: RouterViews
    private let snapshots: ReplSnapshots
    private let tap: RouterEventTap
    private let recorder: ReplRecorder
    private let reloader: AppReloader
    private let observers: ReplObservers

    /// A session on an app that `host` has already loaded (or will load through the prompt).
    /// Everything the session and Lua's `print` write goes to `output`, one call per message,
    /// without a trailing newline.
    public init(
        host: PortolanHost, appName: String, appFile: String? = nil, style: ReplStyle = .plain,
        output: @escaping @Sendable (String) -> Void
    ) async {
        let printer = ReplPrinter(style: style, output: output)
        let tap = RouterEventTap(host: host, printer: printer)
        let recorder = ReplRecorder(host: host, printer: printer, app: appFile ?? DemoApp.chunkName, appName: appName)
        self.host = host
        self.appName = appName
        self.printer = printer
        self.tap = tap
        self.recorder = recorder
        lua = ChunkEvaluator(host: host, printer: printer, tap: tap, recorder: recorder)
        console = RouteConsole(host: host, printer: printer, tap: tap, recorder: recorder)
        views = RouterViews(host: host, printer: printer)
        snapshots = ReplSnapshots(host: host, printer: printer)
        reloader = AppReloader(host: host, printer: printer, tap: tap, recorder: recorder)
        observers = ReplObservers(host: host, appName: appName, appFile: appFile)
        // What a line's Lua prints is bounded per line typed, as a scenario's output is.
        await host.setOutput { line in printer.printFromLua(line) }
    }

    /// A session on a new host that has loaded `appFile`, or the built-in demo app when it is nil.
    /// A script that does not load throws, with its `file:line: message`.
    public static func start(
        appFile: String?, configuration: HostConfiguration = .init(), style: ReplStyle = .plain,
        output: @escaping @Sendable (String) -> Void
    ) async throws(HostError) -> ReplSession {
        let host = try PortolanHost(configuration: configuration)
        let session = await ReplSession(
            host: host, appName: appFile ?? "\(DemoApp.chunkName) (the built-in demo)", appFile: appFile,
            style: style, output: output)
        if let appFile {
            try await AppLoadLimits.loadApp(host, file: appFile)
        } else {
            DemoApp.useBuiltInBytecode()
            try await AppLoadLimits.run(host) { () async throws(HostError) in
                try await host.loadApp(
                    .source(DemoApp.source, chunkName: DemoApp.chunkName), instructionBudget: AppLoadLimits.scriptInstructionBudget)
            }
        }
        await session.noteFiles()
        return session
    }

    /// One line to greet the user with.
    public nonisolated var banner: String {
        "Portolan REPL on \(appName). :help for help, :quit to leave."
    }

    /// How lines are coloured.
    public nonisolated var style: ReplStyle { printer.style }

    /// The prompt to show before the next line.
    public var prompt: String {
        lua.isContinuing ? Self.continuationPrompt : Self.mainPrompt
    }

    /// Whether an incomplete chunk waits for more lines.
    public var isContinuing: Bool { lua.isContinuing }

    /// Drops an incomplete chunk (Ctrl-C at a prompt).
    public func cancelInput() {
        lua.cancel()
    }

    /// Handles one line of input (without its newline), once the inputs before it are done.
    @discardableResult
    public func handle(_ line: String) async -> Step {
        await turnstile.enter()
        defer { turnstile.leave() }
        printer.startLine()
        var step = Step.ready
        await asOneInput { step = await dispatch(line) }
        return step
    }

    /// The line loop's body, lua.c's `doREPL`: a line inside a chunk is Lua, a line that starts one
    /// may be a shortcut.
    private func dispatch(_ line: String) async -> Step {
        if lua.isContinuing {
            return await lua.evaluate(line)
        }
        switch ReplInput(line: line) {
        case .empty: break
        case .lua(let source): return await lua.evaluate(source)
        case .route(let text): await console.route(text)
        case .plan(let text): await console.plan(text)
        case .back(let count): await console.back(count)
        case .tree: await views.tree()
        case .history: await views.history()
        case .graph(let argument): await views.graph(argument)
        case .reload: await reloader.reload(reason: nil)
        case .record(let argument): await recorder.record(argument)
        case .events(let argument): tap.events(argument)
        case .save(let file): await snapshots.save(to: file)
        case .restore(let file): await snapshots.restore(from: file)
        case .help: printer.write(ReplInput.helpText)
        case .quit:
            finishNow()
            return .quit
        case .unknown(let name):
            printer.say("error: unknown command ':\(name)'; :help lists the commands", .error)
        }
        return .ready
    }

    /// Runs one input with the host's router events followed and logged, then tells the observers
    /// what it did.
    private func asOneInput(_ body: () async -> Void) async {
        await tap.follow()
        tap.log.start()
        await body()
        await observers.notify(of: tap.log.stop())
    }

    /// Ends the session at the end of input (once the inputs before it are done): stops a
    /// recording (its file is already written after every request). Returns false when the input
    /// ended inside a chunk, which is reported as the syntax error it is rather than dropped in
    /// silence.
    @discardableResult
    public func finish() async -> Bool {
        await turnstile.enter()
        defer { turnstile.leave() }
        return finishNow()
    }

    @discardableResult
    private func finishNow() -> Bool {
        recorder.stop()
        return lua.finish()
    }

    /// What Tab offers for `prefix`, the text of the line before the cursor. It does not wait for
    /// the input going through: the line editor asks while the user types.
    public func complete(_ prefix: String) async -> ReplCompletion {
        await CompletionLookup(host: host).complete(prefix, atChunkStart: !lua.isContinuing)
    }

    /// Adds an observer (once the inputs before it are done) and tells it at once where the
    /// session stands.
    public func addObserver(_ observer: any ReplObserver) async {
        await turnstile.enter()
        defer { turnstile.leave() }
        await observers.add(observer)
    }

    /// The files `--watch` watches: the app file, every file `portolan.load` ran and every module
    /// the app required; when reloads are gated (a `bundle.json` beside the app), that file and
    /// the scenario files it names.
    public var watchedFiles: [String] {
        get async { await reloader.watchedFiles() }
    }

    /// The `bundle.json` beside the app whose gate every reload goes through (docs/repl.md, "The
    /// gate on reload"); nil when reloads are not gated.
    public var reloadGateManifest: String? {
        get async { await reloader.gateManifest() }
    }

    /// Reloads when a watched file changed since it was last seen (`portolan repl --watch` calls
    /// it every few hundred milliseconds); says so and what the reload did. Returns whether it
    /// reloaded. A reload asked for while a line runs waits for the line, so that the line is
    /// resolved and routed by the same rules and its events stay its own (docs/concurrency.md,
    /// rule 8).
    @discardableResult
    public func reloadIfChanged() async -> Bool {
        await turnstile.enter()
        defer { turnstile.leave() }
        guard let file = reloader.changedFile() else { return false }
        // Wait out an editor's write (truncate, then write) before reading the file.
        try? await Task.sleep(for: .milliseconds(50))
        await asOneInput { await reloader.reload(reason: file) }
        return true
    }

    /// How many inputs wait for the one going through (what a test sees of the turnstile).
    var inputsWaiting: Int { turnstile.waitingCount }

    private func noteFiles() async {
        await reloader.noteFiles()
    }
}
