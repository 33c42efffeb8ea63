import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PortolanLua
import PortolanTools
import Synchronization

/// `portolan repl [APP.lua]` (and `portolan` alone): the interactive session.
///
/// The logic lives in `ReplSession` (PortolanTools); this is the terminal side: reading lines,
/// prompts, Ctrl-C and exit codes.
///
/// - On a terminal: a banner, a `portolan> ` prompt (`...> ` while a chunk continues), lines read
///   through libedit (`LineEditor`: editing, persistent history, Tab completion). Ctrl-C stops a
///   running chunk (`error: interrupted`) or, at the prompt, drops the line and any pending
///   chunk; Ctrl-D at an empty prompt ends the session. Colours unless `NO_COLOR` is set.
/// - Not on a terminal (a pipe, a file): no banner, no prompts and no colours, so a transcript
///   holds only what the session printed. Ctrl-C stops a running chunk; while waiting for input
///   it ends the process (status 130), as lua.c does outside a chunk.
/// - Everything the session prints goes to standard output, errors included (`error: ...`), so a
///   transcript keeps its order. Exit status 0 at the end of input or `:quit`; 1 when the app does
///   not load (its `file:line: message` on standard error): there is nothing to drive without it;
///   1 too when the input ends inside an unfinished chunk (`x = [[abc`), after its syntax error.
/// - `--watch`: the app file (and the files it `portolan.load`s) are polled every 300 ms and
///   reloaded when they change; what the reload did is printed above the line being typed. The
///   reload goes through the input loop, so it never lands inside a line (docs/concurrency.md).
struct Repl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Drive an app's routes by hand, in Lua or with /id/path shortcuts.",
        discussion: """
            Loads APP (a Lua script that calls portolan.app), or the built-in demo app (Examples/movies/app.lua) \
            when none is given, and reads lines: Lua to evaluate (expressions are printed), /url or /root/a/b \
            to route, and : commands (:help lists them: :tree, :plan, :back, :history, :graph, :events, \
            :reload, :record, :quit). On a terminal, lines are edited with libedit: history in \
            $PORTOLAN_HISTORY or ~/.portolan_history, Tab completion, colours unless NO_COLOR is set. \
            When standard input is not a terminal, lines are read plainly and no prompt is shown, so a \
            session can be scripted.

            """ + ExitStatusHelp.paragraph(Repl.exitStatuses)
    )

    /// What `run` exits with (the usage error aside).
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "the input ended, or :quit"),
        (1, "the app does not load, or the input ended inside an unfinished chunk"),
        (130, "Ctrl-C while waiting for input that is not a terminal"),
    ]

    @Argument(help: ArgumentHelp(
        AppScript.meaning + " Default: the built-in demo app.", valueName: AppScript.valueName))
    var app: String?

    @Flag(help: "Reload the app when its file, a file it portolan.load-s or a module it requires changes.")
    var watch = false

    @Option(
        name: .customLong("inspect"),
        help: ArgumentHelp(
            "Serve the live inspector (the tree, the events, the last route) on 127.0.0.1:port; --inspect alone uses \(InspectorProcess.defaultPort), --inspect 0 any free port.",
            valueName: "port"))
    var inspectPort: UInt16?

    mutating func run() async throws {
        try await Self.runSession(app: app, watch: watch, inspectPort: inspectPort)
    }

    /// The session, given what the command line said: called by `run()` once the parser has made
    /// the command, and by `Portolan.main` directly for the plain `portolan` and `portolan repl APP`
    /// (`DirectRepl`), which skip the parser to reach the prompt sooner.
    static func runSession(app: String?, watch: Bool, inspectPort: UInt16? = nil) async throws {
        // What the binary holds no matching bytecode of (the demo app's is used when it matches)
        // compiles on a second core while the host starts, which finds it compiled
        // (Benchmarks/README.md, "Start-up"). Nothing else changes.
        let demo = app == nil && !DemoApp.useBuiltInBytecode()
        PortolanHost.prepare(app: demo ? (source: DemoApp.source, chunkName: DemoApp.chunkName) : nil)
        let interactive = isatty(STDIN_FILENO) != 0
        let environment = Self.environment()
        let style = ReplStyle.decide(outputIsTerminal: interactive && isatty(STDOUT_FILENO) != 0, environment: environment)
        let session: ReplSession
        do {
            session = try await ReplSession.start(appFile: app, style: style, output: { Console.line($0) })
        } catch {
            StandardStreams.errorLine("error: \(error.message)")
            throw ExitCode.failure
        }
        let inspector = try await startInspector(port: inspectPort, session, style: style)
        defer { withExtendedLifetime(inspector) {} }
        installInterruptHandler(session.host)
        replPhase.store(interactive ? Phase.idleOnTerminal : Phase.idlePlain, ordering: .sequentiallyConsistent)
        if interactive {
            Console.line(session.banner)
        }
        let editor = interactive ? LineEditor(complete: { prefix in Self.complete(prefix, in: session) }, environment: environment) : nil
        Console.editor.withLock { $0 = editor }
        defer { Console.editor.withLock { $0 = nil } }
        let reader = TerminalReader()
        let feed = ReplInputFeed { () async -> TerminalReader.Event in
            guard interactive else { return readLine(strippingNewline: true).map { .line($0) } ?? .end }
            afterInterrupt.store(0, ordering: .sequentiallyConsistent)
            return await Self.readFromTerminal(prompt: await session.prompt, editor: editor, reader: reader, style: style)
        }
        defer { feed.stop() }
        if watch { await startWatching(session, app: app, style: style, feed: feed) }
        // One input at a time, in the order it came: a line, or a --watch reload, never both at once.
        for await input in feed.inputs {
            switch input {
            case .watch:
                feed.tookWatch()
                await session.reloadIfChanged()
            case .read(.interrupted):
                // The line is dropped (the terminal or the editor showed ^C); the pending chunk too.
                await session.cancelInput()
                feed.readNext()
            case .read(.end):
                if interactive { StandardStreams.write("\n") }
                if await !session.finish() { throw ExitCode.failure }
                return
            case .read(.line(let line)):
                replPhase.store(Phase.running, ordering: .sequentiallyConsistent)
                let step = await session.handle(line)
                replPhase.store(interactive ? Phase.idleOnTerminal : Phase.idlePlain, ordering: .sequentiallyConsistent)
                // A Ctrl-C that came after the line's Lua had ended, before the phase changed, found
                // nothing to stop: from a pipe, it is a Ctrl-C while waiting, and ends the process.
                if !interactive && session.host.interruption.isRequested { throw ExitCode(130) }
                if step == .quit { return }
                feed.readNext()
            }
        }
    }

    /// `--watch`: asks the input loop every 300 ms to reload if one of the app's files changed.
    private static func startWatching(_ session: ReplSession, app: String?, style: ReplStyle, feed: ReplInputFeed) async {
        guard app != nil else {
            Console.line(style.paint("--watch: the built-in demo has no file to watch", .note))
            return
        }
        Console.line(style.paint("watching \(await session.watchedFiles.joined(separator: ", ")) for changes", .note))
        if let manifest = await session.reloadGateManifest {
            Console.line(style.paint("each edit goes through the gate of \(manifest) first (docs/repl.md)", .note))
        }
        feed.watch(every: .milliseconds(300))
    }

    /// One line from the terminal: through the line editor when libedit runs here, else plainly.
    private static func readFromTerminal(
        prompt: String, editor: LineEditor?, reader: TerminalReader, style: ReplStyle
    ) async -> TerminalReader.Event {
        guard let editor else {
            StandardStreams.write(style.paint(prompt, .prompt))
            let event = reader.next()
            if case .interrupted = event { StandardStreams.write("\n") }
            return event
        }
        switch await editor.read(prompt: style.prompt(prompt, literal: LineEditor.promptLiteral)) {
        case .line(let text): return .line(text)
        case .interrupted: return .interrupted
        case .end: return .end
        }
    }

    /// Completion for the editor, which calls it on its own thread and waits (at most 2 s).
    private static func complete(_ prefix: String, in session: ReplSession) -> ReplCompletion {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Mutex<ReplCompletion>(.none)
        Task {
            let completion = await session.complete(prefix)
            result.withLock { $0 = completion }
            semaphore.signal()
        }
        guard semaphore.wait(timeout: .now() + 2) == .success else { return .none }
        return result.withLock { $0 }
    }

    private static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "HOME", "PORTOLAN_HISTORY"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}

// MARK: Ctrl-C

/// What a SIGINT means now.
private enum Phase {
    /// Waiting for a line on a terminal: clear the line.
    static let idleOnTerminal = 0
    /// Waiting for a line from a pipe or file: end the process, as lua.c does outside a chunk.
    static let idlePlain = 1
    /// A line is being handled: stop the Lua code it runs.
    static let running = 2
}

private let replPhase = Atomic<Int>(Phase.idleOnTerminal)
/// Set when Ctrl-C stopped a chunk, until the next line is written.
private let afterInterrupt = Atomic<Int>(0)
/// Ctrl-Cs at a terminal prompt not yet seen by the reader.
private let promptInterrupts = Atomic<Int>(0)
/// Set once, before the handler is installed; the handler only reads it.
nonisolated(unsafe) private var replHost: Unmanaged<PortolanHost>?

private func installInterruptHandler(_ host: PortolanHost) {
    replHost = Unmanaged.passRetained(host)
    // glibc's signal() restarts interrupted system calls, so a plain readLine is not cut short.
    signal(SIGINT, handleInterrupt)
}

/// Async-signal-safe: atomic loads and stores, and `_exit`.
private func handleInterrupt(_: CInt) {
    switch replPhase.load(ordering: .sequentiallyConsistent) {
    case Phase.running:
        replHost?.takeUnretainedValue().interruption.request()
        // The terminal echoed ^C; the next line printed starts on a line of its own.
        afterInterrupt.store(1, ordering: .sequentiallyConsistent)
    case Phase.idlePlain:
        _exit(130)
    default:
        promptInterrupts.add(1, ordering: .sequentiallyConsistent)
    }
}

// MARK: Terminal I/O

/// Reads lines from a terminal, noticing Ctrl-C while it waits.
///
/// It polls standard input rather than blocking in `read`, because the signal may be delivered
/// to any thread of the process, not necessarily the one reading. Only the input loop's reader
/// task uses it, one read at a time.
final class TerminalReader: @unchecked Sendable {
    // @unchecked: `buffer` is used by one read at a time, all from the reader task.
    enum Event: Sendable {
        case line(String)
        case interrupted
        case end
    }

    private var buffer: [UInt8] = []

    func next() -> Event {
        promptInterrupts.store(0, ordering: .sequentiallyConsistent)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            if promptInterrupts.exchange(0, ordering: .sequentiallyConsistent) > 0 {
                buffer.removeAll()
                return .interrupted
            }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 { return .end }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .end
            }
            if count == 0 {
                // Ctrl-D: the end, after the last unfinished line if there is one.
                guard !buffer.isEmpty else { return .end }
                defer { buffer.removeAll() }
                return .line(String(decoding: buffer, as: UTF8.self))
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}

/// The session's output: above the line being edited when the line editor runs, else written at once.
private enum Console {
    /// The line editor, while the session runs on a terminal: lines printed while it edits go
    /// above the line being typed.
    static let editor = Mutex<LineEditor?>(nil)

    static func line(_ text: String) {
        if let editor = editor.withLock({ $0 }), editor.printAbove(text) { return }
        let fresh = afterInterrupt.exchange(0, ordering: .sequentiallyConsistent) != 0
        StandardStreams.write((fresh && isatty(STDOUT_FILENO) != 0 ? "\n" : "") + text + "\n")
    }
}
