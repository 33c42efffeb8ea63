import Lua
import Portolan
import PortolanLua

/// The REPL without a terminal: lines in, lines of output out.
///
/// Lua is evaluated as lua.c does (``evaluate(_:)``). Lines that start a chunk with `/`,
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
    /// Why `pending` does not compile yet (`stdin:1: unfinished long string ... near '<eof>'`).
    var pendingError = ""
    /// Router events seen while a line runs, to show redirects and queued routes.
    let eventLog = RouteEventLog()
    /// How much of what the running line's Lua prints is still shown.
    let printed = Locked(BoundedOutput())
    var observedRouter: ObjectIdentifier?
    /// Whether `:events on` is in force; read by the router observer.
    let showsEvents = Locked(false)
    /// The scenario `:record` is writing, if any.
    var recording: ReplRecording?
    /// Lua statements typed before any recording that ran cleanly without routing (`login()`,
    /// `logged_in = true`): a recording started later replays them first, since its routes may
    /// depend on them. The last `setupLimit` are kept.
    var setupLua: [String] = []
    static let setupLimit = 500
    /// The files watched and how they were when last seen.
    var stamps: [String: FileStamp] = [:]
    /// Those told what each line did (the live inspector); see `addObserver(_:)`.
    var observers: [any ReplObserver] = []
    /// The router the observers were last told of: a new one (the app reloaded) is news.
    var notifiedRouter: ObjectIdentifier?

    /// A session on an app that `host` has already loaded (or will load through the prompt).
    /// Everything the session and Lua's `print` write goes to `output`, one call per message,
    /// without a trailing newline.
    public init(
        host: PortolanHost, appName: String, appFile: String? = nil, style: ReplStyle = .plain,
        output: @escaping @Sendable (String) -> Void
    ) async {
        self.host = host
        self.appName = appName
        self.appArgument = appFile
        self.style = style
        self.write = output
        // What a line's Lua prints is bounded per line typed, as a scenario's output is.
        let printed = self.printed
        await host.setOutput { line in
            if let kept = printed.withLock({ $0.admit(line) }) { output(kept) }
        }
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
            try await AppLoadLimits.run(host) { () async throws(HostError) in
                try await host.loadApp(
                    source: DemoApp.source, chunkName: DemoApp.chunkName, instructionBudget: AppLoadLimits.scriptInstructionBudget)
            }
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
        eventLog.start()
        printed.withLock { $0 = BoundedOutput() }
        let step = await dispatch(line)
        await notifyObservers(of: eventLog.stop())
        return step
    }

    private func dispatch(_ line: String) async -> Step {
        if !pending.isEmpty {
            return await evaluate(line)
        }
        switch ReplInput(line: line) {
        case .empty: break
        case .lua(let source): return await evaluate(source)
        case .route(let text): await route(text)
        case .plan(let text): await plan(text)
        case .tree: await tree()
        case .back: await back()
        case .history: await showHistory()
        case .reload: await reload(reason: nil)
        case .record(let argument): await record(argument)
        case .events(let argument): events(argument)
        case .graph(let argument): await graph(argument)
        case .save(let file): await save(to: file)
        case .restore(let file): await restore(from: file)
        case .help: write(ReplInput.helpText)
        case .quit:
            await finish()
            return .quit
        case .unknown(let name):
            say("error: unknown command ':\(name)'; :help lists the commands", .error)
        }
        return .ready
    }

    /// Ends the session: stops a recording (its file is already written after every request).
    /// Ends the session at the end of input. Returns false when the input ended inside a chunk,
    /// which is reported as the syntax error it is rather than dropped in silence.
    @discardableResult
    public func finish() async -> Bool {
        stopRecording()
        guard !pending.isEmpty else { return true }
        pending = []
        say("error: \(pendingError) (the input ended before the chunk did)", .error)
        return false
    }

    /// Writes one message, coloured for its role.
    func say(_ text: String, _ role: ReplStyle.Role) {
        write(style.paint(text, role))
    }

    /// Observes the app's router if it is new (an app declared again, or reloaded, gets a new
    /// router): its events are logged per line, and shown with `:events on`.
    func observeRouter() async {
        guard let router = await host.router, observedRouter != ObjectIdentifier(router) else { return }
        observedRouter = ObjectIdentifier(router)
        let eventLog = self.eventLog, showsEvents = self.showsEvents, write = self.write, style = self.style
        router.observe { [weak router] event in
            let step = router?.runningStep
            eventLog.record(event, step: step)
            if showsEvents.value {
                write(style.paint("· " + Self.describe(event, step: step), .event))
            }
        }
    }
}
