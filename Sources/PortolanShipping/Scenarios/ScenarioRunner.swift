import Portolan
import PortolanLua
import Lua

/// Runs scenario files: `scenario(name, fn)` cases checked with `expect`, each in a fresh host.
///
/// For each file, a first host (with the app) runs the file only to list its scenarios. Then each
/// scenario runs alone in its own fresh host: the app is loaded, the file is run again (from its
/// bytecode, compiled once per process), and `scenario` calls only the selected case's function,
/// in the file's main flow, then ends the file's top level: what follows the selected scenario
/// declares nothing this host runs, so a scenario costs what the file before it costs, not the
/// whole file. So no scenario sees another's state, and each can be run independently:
/// `options.jobs` hosts at a time, and a ``ScenarioShard`` of them on each machine of a CI matrix.
///
/// ```swift
/// let runner = ScenarioRunner(options: .init(app: "Examples/movies/app.lua"))
/// let results = await runner.run(files: ["Examples/movies/scenarios/tabs.lua"])
/// ```
public struct ScenarioRunner: Sendable {
    public struct Options: Sendable {
        /// An app script loaded before each scenario; nil when the files declare or load their own.
        public var app: String?
        /// How long one scenario may run, its app load included, before it is cut and fails.
        public var timeout: Duration
        /// How long a cut scenario gets to stop before the runner moves on without it.
        public var grace: Duration
        /// Limits of each host. Its `moduleDirectory`, when nil, becomes the app's directory (or
        /// the scenario file's, without an app), so that `require` finds their own modules.
        public var host: HostConfiguration
        /// How many hosts may run at once (files being listed, then scenarios); at least 1.
        /// Results are reported in the same order whatever it is.
        public var jobs: Int
        /// Whether each scenario's result carries what it exercised of the app's graph
        /// (``ScenarioResult/coverage``). Needs `app`: coverage is measured against its graph.
        public var coverage: Bool
        /// Whether every scenario must assert all its router events with `expect_events`, as if
        /// each called `exhaustive()`.
        public var exhaustive: Bool
        /// When set, nothing runs past it (a bundle gate's time for all its scenarios): a file's
        /// listing and each scenario get what is left of it when less than `timeout`, and once it
        /// has passed none starts. Each is cut there as at its own time limit.
        public var deadline: ContinuousClock.Instant?

        public init(
            app: String? = nil, timeout: Duration = .seconds(30), grace: Duration = .seconds(1),
            host: HostConfiguration = .init(), jobs: Int = 1, coverage: Bool = false, exhaustive: Bool = false,
            deadline: ContinuousClock.Instant? = nil
        ) {
            self.app = app
            self.timeout = timeout
            self.grace = grace
            self.host = host
            self.jobs = max(1, jobs)
            self.coverage = coverage
            self.exhaustive = exhaustive
            self.deadline = deadline
        }
    }

    public let options: Options
    /// The threads its hosts run on, reused across scenarios.
    private let threads = HostThreads()

    public init(options: Options = .init()) {
        self.options = options
    }

    /// Runs every scenario of every file (or of one shard of them), and gives the results in
    /// order: the files' order, then each file's scenarios in declaration order, whatever
    /// `options.jobs` is. `report` sees each result as soon as it and all before it are known.
    ///
    /// Every file is listed first (at most `options.jobs` at a time), then the scenarios run.
    ///
    /// `selection` keeps the scenarios `--filter` names and those marked `scenario.only`, and
    /// settles those marked `scenario.skip`, before any shard is dealt; `narrowed` hears what it
    /// left out, if anything, before the first result.
    @discardableResult
    public func run(
        files: [String], shard: ScenarioShard? = nil, selection: ScenarioSelection = .init(),
        report: (ScenarioResult) -> Void = { _ in }, narrowed: (ScenarioNarrowing) -> Void = { _ in }
    ) async -> [ScenarioResult] {
        let listed = await entries(files: files)
        var entries = selection.select(listed)
        if let narrowing = selection.narrowing(of: listed, kept: entries) { narrowed(narrowing) }
        if let shard { entries = shard.select(entries) }
        return await run(entries: entries, report: report)
    }

    /// Runs the scenarios of one file, in order.
    @discardableResult
    public func run(file: String, report: (ScenarioResult) -> Void = { _ in }) async -> [ScenarioResult] {
        await run(files: [file], report: report)
    }

    // MARK: Listing

    /// A scenario as its file declares it: its name, and `scenario.only` or `scenario.skip`.
    public struct Declared: Sendable, Equatable {
        public var name: String
        public var mark: ScenarioMark?
    }

    public enum Listing: Sendable, Equatable {
        /// The scenarios in order; `appError` when the app failed to load (the file was then
        /// listed without it, and each of its scenarios fails with that error).
        case listed([Declared], appError: String?)
        /// The file cannot be listed: it does not load, or its top level fails or never ends.
        case failed(ScenarioResult)
    }

    /// Lists the scenarios a file declares, by running it once in a host where `scenario` only
    /// records names.
    public func list(file: String) async -> Listing {
        let first = await session(file: file, selected: nil, withApp: true)
        let failure = { (message: String, attempt: Attempt) -> Listing in
            .failed(ScenarioResult(
                file: file, name: ScenarioResult.fileFailureName, outcome: .failed(message),
                output: attempt.record?.output ?? [], duration: attempt.duration))
        }
        switch first.ending {
        case .done(let record):
            return .listed(record.found, appError: nil)
        case .appFailed(let appError):
            // Name the scenarios without the app, so that each one reports the app's error.
            let second = await session(file: file, selected: nil, withApp: false)
            switch second.ending {
            case .done(let record) where !record.found.isEmpty:
                return .listed(record.found, appError: appError)
            case .failed(let message, _):
                return failure("the app did not load: " + appError + "\nand without it the file fails: " + message, first)
            default:
                return failure("the app did not load: " + appError, first)
            }
        case .failed(let message, _):
            return failure(message, first)
        case .timedOut(let location, let limit):
            return failure("timed out after \(Self.seconds(limit))\(Self.cutText(at: location)) while listing its scenarios", first)
        }
    }

    // MARK: Running one scenario

    /// Runs the `index`-th scenario (1-based) of `file` in a fresh host.
    public func run(file: String, scenario index: Int, named name: String) async -> ScenarioResult {
        let collector = options.coverage && options.app != nil ? CoverageCollector() : nil
        let attempt = await session(file: file, selected: index, withApp: true, coverage: collector)
        let output = attempt.record?.output ?? []
        let outcome: ScenarioResult.Outcome
        switch attempt.ending {
        case .done(let record):
            if let reason = record.skipReason {
                outcome = .skipped(reason)
            } else if record.finished {
                outcome = .passed
            } else if record.started {
                outcome = .failed("the scenario did not return to the file (a coroutine yield?)")
            } else {
                outcome = .failed("the file did not declare this scenario when run again (is its list of scenarios conditional?)")
            }
        case .failed(let message, let record):
            if let reason = record.skipReason {
                outcome = .skipped(reason)
            } else {
                outcome = .failed(message)
            }
        case .appFailed(let message):
            outcome = .failed("the app did not load: " + message)
        case .timedOut(let location, let limit):
            outcome = .failed("timed out after \(Self.seconds(limit))\(Self.cutText(at: location))")
        }
        var coverage = collector?.snapshot
        if case .appFailed = attempt.ending { coverage = nil }
        return ScenarioResult(
            file: file, name: name, outcome: outcome, output: output, routes: attempt.record?.journal.routeLines ?? [],
            duration: attempt.duration, coverage: coverage)
    }

    // MARK: Hosts

    private struct Attempt: Sendable {
        enum Ending: Sendable {
            case done(ScenarioSession.Record)
            case failed(String, ScenarioSession.Record)
            case appFailed(String)
            /// Cut at its time limit, `after`; `at` is where it was running or waiting, when it said.
            case timedOut(at: String?, after: Duration)

            var failureMessage: String? {
                switch self {
                case .failed(let message, _), .appFailed(let message): message
                case .done, .timedOut: nil
                }
            }
        }
        var ending: Ending
        var record: ScenarioSession.Record?
        var duration: Duration
    }

    /// Runs the file in a fresh host, listing its scenarios (`selected` nil) or running one.
    private func session(
        file: String, selected: Int?, withApp: Bool, coverage: CoverageCollector? = nil
    ) async -> Attempt {
        let clock = ContinuousClock()
        let start = clock.now
        let session = ScenarioSession(selected: selected, exhaustive: options.exhaustive)
        let app = withApp ? options.app : nil
        var configuration = options.host
        if configuration.moduleDirectory == nil {
            configuration.moduleDirectory = FilePaths.directory(of: app ?? file)
        }
        return await threads.with { thread in
            let homed: ThreadHomedHost
            switch await ThreadHomedHost.make(configuration: configuration, on: thread) {
            case .success(let made):
                homed = made
            case .failure(let error):
                let ending = Attempt.Ending.failed("cannot start a host: \(error.message)", session.snapshot)
                return (Attempt(ending: ending, duration: clock.now - start), isFree: true)
            }
            let attempt = await attempt(in: homed, session: session, file: file, app: app, coverage: coverage, since: start)
            homed.release(on: thread)
            return attempt
        }
    }

    /// Runs the file in `homed`'s host, within the scenario's time limit. Its own function, so that
    /// the references to the host it takes end with it, before the host is released on its thread.
    private func attempt(
        in homed: ThreadHomedHost, session: ScenarioSession, file: String, app: String?, coverage: CoverageCollector?,
        since start: ContinuousClock.Instant
    ) async -> (Attempt, isFree: Bool) {
        let clock = ContinuousClock()
        guard let host = homed.host else {
            return (Attempt(ending: .failed("the host was released", session.snapshot), duration: clock.now - start), isFree: true)
        }
        let limit = options.deadline.map { min(options.timeout, clock.now.duration(to: $0)) } ?? options.timeout
        guard limit > .zero else {
            return (Attempt(ending: .timedOut(at: nil, after: .zero), record: session.snapshot, duration: clock.now - start), isFree: true)
        }
        let ending = await withTimeout(limit, grace: options.grace, interrupting: host.interruption) { start in
            // One unit of work: the whole scenario runs on the host's thread, without a hop.
            await host.perform { host in
                start()
                return Self.drive(host, session: session, file: file, app: app, coverage: coverage)
            }
        }
        let duration = clock.now - start
        switch ending {
        case .finished(let ending):
            return (Attempt(ending: ending, record: session.snapshot, duration: duration), isFree: true)
        case .cut(let ending):
            let cut = Attempt.Ending.timedOut(at: ending.failureMessage.flatMap(Self.location(in:)), after: limit)
            return (Attempt(ending: cut, record: session.snapshot, duration: duration), isFree: true)
        case .abandoned:
            host.interruption.abandon()   // what it still runs must not slow the scenarios after it
            return (Attempt(ending: .timedOut(at: nil, after: limit), record: session.snapshot, duration: duration), isFree: false)
        }
    }

    private static func drive(
        _ host: isolated PortolanHost, session: ScenarioSession, file: String, app: String?, coverage: CoverageCollector?
    ) -> Attempt.Ending {
        host.setOutput { session.print($0) }
        host.observeEvents { session.record($0) }
        let globals: LuaValue, tearDown: LuaValue
        do {
            let runner = try host.function { session.handle($0) }
            _ = ShippingBytecode.expectLibraryInUse
            let library = try host.call(
                expectLibrarySource, chunkName: expectLibraryChunkName, arguments: [runner, try host.valuePrinter, host.keyOrder],
                environment: .host)
            globals = library.first ?? .nil
            tearDown = library.count > 1 ? library[1] : .nil
        } catch {
            return .failed("cannot install scenario and expect: \(error.message)", session.snapshot)
        }
        if let app {
            do {
                // The scenario's time limit and interrupt hold here too; the budget is the app's.
                try host.loadApp(.file(app), instructionBudget: AppLoadLimits.scriptInstructionBudget)
            } catch {
                return .appFailed(error.message)
            }
            // Watched from the state the app loaded into: its initial active path is covered.
            coverage?.attach(to: host)
        }
        host.setScriptDirectory(FilePaths.directory(of: file))
        if Task.isCancelled {
            return .failed("cut before the file ran", session.snapshot)
        }
        do {
            try runScenarioFile(file, globals: globals, in: host)
        } catch {
            // The selected scenario ran and the file's top level was ended after it (`stop`).
            if session.snapshot.stopped, !error.isInterrupted {
                coverage?.detach(from: host)
                return .done(session.snapshot)
            }
            var message = describe(error, file: file) + (host.graph == nil ? noAppHint(for: error.message) : "")
            // The tear-down the error skipped (`after_each`); not for a scenario cut at its limit.
            if !error.isInterrupted, case .function = tearDown {
                do {
                    if let failed = try host.call(tearDown).first?.stringValue {
                        message += "\nand after_each failed too: " + failed
                    }
                } catch {
                    message += "\nand after_each failed too: " + error.message
                }
            }
            coverage?.detach(from: host)
            return .failed(message, session.snapshot)
        }
        coverage?.detach(from: host)
        return .done(session.snapshot)
    }

    /// Runs the scenario file with its own globals (the expect library's), so that an app that
    /// redefines `expect` or a builtin cannot change what the scenario calls. The file is compiled
    /// once per process; each scenario's fresh host runs its top level up to the selected scenario.
    private static func runScenarioFile(_ file: String, globals: LuaValue, in host: isolated PortolanHost) throws(HostError) {
        let source: [UInt8]
        do {
            source = try LuaState.chunkBytes(contentsOfFile: file)
        } catch {
            throw HostError(error.message)
        }
        _ = try host.call(try host.function(compiling: source, chunkName: "@" + file, globalsOf: globals))
    }

    /// The error's message, then where the scenario called what failed, when the message names
    /// another line (a helper's `expect`, an app function that raised).
    private static func describe(_ error: HostError, file: String) -> String {
        guard let traceback = error.traceback else { return error.message }
        var calls: [String] = []
        for line in traceback.split(separator: "\n") {
            let frame = line.drop(while: { $0 == "\t" || $0 == " " })
            // Frames below the library's `declare` are the file's top level, not the scenario.
            if frame.hasPrefix("expect:"), frame.contains("'declare'") { break }
            guard frame.hasPrefix(luaName(of: file) + ":") else { continue }
            let location = frame.prefix(while: { $0 != " " })   // "file:line:"
            if error.message.hasPrefix(location) || calls.contains("called from " + location.dropLast()) { continue }
            calls.append("called from " + location.dropLast())
        }
        return ([error.message] + calls).joined(separator: "\n")
    }

    /// What a failure that names a missing global adds when no app was loaded, by `--app` or by
    /// the file: the global is most likely the app's (`login`), not a typo.
    static func noAppHint(for message: String) -> String {
        guard message.contains("a nil value (global '") else { return "" }
        return "\n(no app was loaded: give the app with --app APP.lua, or load it in the file with portolan.load(\"app.lua\"))"
    }

    /// How Lua names a file in its messages: the path, or for a long one `...` and its last 56
    /// bytes (`luaO_chunkid` with Lua's default `LUA_IDSIZE` of 60).
    public static func luaName(of path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.count > 59 else { return path }
        return "..." + String(decoding: bytes.suffix(56), as: UTF8.self)
    }

    /// ` (cut at s.lua:3)`, or ` (cut)` where the scenario did not say where it was.
    private static func cutText(at location: String?) -> String {
        location.map { " (cut at \($0))" } ?? " (cut)"
    }

    /// The `file:line` an error message starts with, as Lua's errors do.
    static func location(in message: String) -> String? {
        guard let match = message.firstMatch(of: #/^([^\n]+?:[0-9]+): /#) else { return nil }
        return String(match.output.1)
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return "\((value * 1000).rounded() / 1000) s"
    }
}
