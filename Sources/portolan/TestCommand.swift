import ArgumentParser
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan test`: runs scenario files, one fresh app per scenario, and reports each case.
struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type's name: deriving it costs the parser a reflective
        // String(describing:) at every start-up, the REPL's included (Benchmarks/README.md, "Start-up").
        commandName: "test",
        abstract: "Run scenario files and report each scenario.",
        discussion: """
            A scenario file calls scenario(name, fn) once per case; expect(actual, expected [, message]) \
            compares deeply and shows the difference, skip(reason) skips the running case. Each scenario \
            runs alone in a fresh Lua state with the app loaded. A directory runs every *.lua file \
            beneath it, in sorted order.

            --filter PATTERN runs only the scenarios whose name contains a match of the regular \
            expression PATTERN. A file may mark scenarios with scenario.only (then only those run, in \
            the whole run) or scenario.skip; --forbid-only fails each scenario.only instead, for CI. \
            --verbose also shows what passing scenarios printed.

            --jobs N runs up to N scenarios at once, each in its own Lua state; the report is the same, \
            in the same order, as with --jobs 1. --shard i/n runs only the i-th of n parts of the \
            scenarios (dealt round-robin in the order of file path and position in the file), so that \
            n machines of a CI matrix together run each scenario exactly once; each part's report \
            stands on its own.

            --coverage prints, after the report, which nodes, parent→child edges, switch targets and URL \
            patterns of the app's graph the scenarios exercised, and lists those they never did (on \
            standard error with --format tap or junit, so that standard output stays valid TAP or XML). \
            --coverage-html FILE writes the same as a self-contained HTML page with the graph coloured by \
            coverage. Both need --app. Coverage does not change the exit status, and is the same whatever \
            --jobs is; a shard's coverage is that of its own scenarios.

            """ + ExitStatusHelp.paragraph([
                (0, "every scenario passed or was skipped"),
                (1, "a scenario or its file failed, coverage failed, or --filter matched none"),
            ])
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, tap, junit
    }

    @Option(help: ArgumentHelp(AppScript.meaning + " Loaded before each scenario.", valueName: AppScript.valueName))
    var app: String?

    @Option(help: "The report format: text, tap (TAP 14) or junit (JUnit XML).")
    var format: Format = .text

    @Option(help: ArgumentHelp("How long one scenario may run before it is cut and fails.", valueName: "seconds"))
    var timeout: Double = 30

    // Unconditional: `--jobs -1` is a value to refuse with a reason, not an unknown flag `-1`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How many scenarios to run at once; 0 or auto for one per core.", valueName: "N"),
        transform: Test.jobs)
    var jobs: Int = 1

    @Option(help: ArgumentHelp(
        "Run only the i-th of n parts of the scenarios (1 ≤ i ≤ n).", valueName: "i/n"),
        transform: Test.shard)
    var shard: ScenarioShard?

    @Flag(help: "After the report, print what the scenarios exercised of the app's graph, and what they never did.")
    var coverage = false

    @Flag(help: "Fail every scenario that leaves router events unasserted by expect_events, as exhaustive() does.")
    var exhaustive = false

    @Option(
        name: .customLong("coverage-html"),
        help: ArgumentHelp("Write the coverage report as an HTML page with the graph coloured by coverage.", valueName: "file.html"))
    var coverageHTML: String?

    @Option(help: ArgumentHelp(
        "Run only the scenarios whose name contains a match of this regular expression.", valueName: "pattern"))
    var filter: String?

    @Flag(help: "Fail every scenario marked scenario.only instead of running only those (for CI).")
    var forbidOnly = false

    @Flag(help: "Also show what passing scenarios printed.")
    var verbose = false

    @Option(help: ArgumentHelp(
        "How long one handler, guard or interceptor may take, for apps that set no handler_timeout (5 s).",
        valueName: "seconds"))
    var handlerTimeout: Double?

    // All unrecognized: an unknown option lands here, to be named as one rather than taken for a file.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("Scenario files or directories (every *.lua beneath) to run, in order.", valueName: "file.lua|dir"))
    var files: [String]

    func validate() throws {
        if let option = files.first(where: { $0.hasPrefix("-") && !FilePaths.exists($0) }) {
            throw ValidationError("Unknown option '\(option)'.")
        }
        guard !files.isEmpty else {
            throw ValidationError("Give at least one scenario file or directory.")
        }
        do {
            _ = try ScenarioFiles.expand(files, excludingApp: app)
        } catch {
            throw ValidationError(error.description)
        }
        do {
            _ = try selection()
        } catch {
            throw ValidationError(error.description + ".")
        }
        if let app, !ScenarioFiles.isReadableFile(app) {
            throw ValidationError("No such app file: \(app)")
        }
        guard timeout > 0, ScriptNumbers.duration(seconds: timeout) != nil else {
            throw ValidationError(
                "--timeout must be a positive number of seconds up to \(Int64(ScriptNumbers.maxSeconds)), not \(timeout).")
        }
        if coverage || coverageHTML != nil, app == nil {
            throw ValidationError("--coverage and --coverage-html need --app: coverage is measured against that app's graph.")
        }
        if let coverageHTML, coverageHTML.isEmpty {
            throw ValidationError("--coverage-html needs a file name.")
        }
        if let handlerTimeout, RootOption.handlerTimeout.duration(seconds: handlerTimeout) == nil {
            throw ValidationError("--handler-timeout must be \(RootOption.handlerTimeout.bounds), not \(handlerTimeout).")
        }
    }

    private func selection() throws(ScenarioSelection.InvalidFilter) -> ScenarioSelection {
        try ScenarioSelection(filter: filter, forbidsOnly: forbidOnly)
    }

    func run() async throws {
        let measuring = coverage || coverageHTML != nil
        var host = HostConfiguration()
        if let seconds = handlerTimeout, let limit = RootOption.handlerTimeout.duration(seconds: seconds) {
            host.handlerTimeout = limit
        }
        let runner = ScenarioRunner(options: .init(
            app: app, timeout: ScriptNumbers.duration(seconds: timeout) ?? .seconds(30), host: host, jobs: jobs,
            coverage: measuring, exhaustive: exhaustive))
        var reporter = (ScenarioFormat(rawValue: format.rawValue) ?? .text).makeReporter(verbose: verbose)
        var summary = ScenarioSummary()
        if let text = reporter.begin() { write(text) }
        let results = await runner.run(
            files: try ScenarioFiles.expand(files, excludingApp: app), shard: shard, selection: try selection(),
            report: { result in
                summary.add(result)
                if let text = reporter.report(result) { write(text) }
            },
            narrowed: { summary.narrowing = $0 })
        if let text = reporter.finish(summary) { write(text) }
        if let filter, summary.total == 0 {
            StandardStreams.errorLine("portolan test: no scenario's name matches --filter \(filter)")
            throw ExitCode(1)
        }
        if measuring {
            try await reportCoverage(of: results, runner: runner)
        }
        if summary.failed > 0 {
            throw ExitCode(1)
        }
    }

    /// The text report (to standard output after a text report, else to standard error) and the
    /// HTML page.
    private func reportCoverage(of results: [ScenarioResult], runner: ScenarioRunner) async throws {
        let toStandardError = format != .text
        let graph: NavigationGraph
        do {
            graph = try await runner.appGraph()
        } catch {
            StandardStreams.errorLine("coverage: the app did not load, so there is nothing to measure: \(error.message)")
            throw ExitCode(1)
        }
        let measured = ScenarioRunner.coverage(of: results, graph: graph)
        if let coverageHTML {
            do {
                try WholeFile.write(CoverageHTML.render(measured, app: app), to: coverageHTML)
            } catch {
                StandardStreams.errorLine("coverage: \(error.description)")
                throw ExitCode(1)
            }
        }
        if coverage {
            let text = CoverageReport.text(measured, app: app, htmlFile: coverageHTML)
            if toStandardError { StandardStreams.errorLine(text) } else { write(text) }
        }
    }

    /// `--jobs`: a count, or 0 / `auto` for the number of cores.
    static func jobs(_ argument: String) throws -> Int {
        let count = argument == "auto" ? 0 : argument.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(argument) : nil
        guard let count else {
            throw ValidationError(
                "--jobs needs a positive number of scenarios to run at once (or 0 or auto for one per core), not \"\(argument)\".")
        }
        return count > 0 ? count : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// `--shard i/n`, checked when parsed so that a bad value is a usage error that says why.
    static func shard(_ argument: String) throws -> ScenarioShard {
        do {
            return try ScenarioShard(parsing: argument)
        } catch {
            throw ValidationError("\(error.description).")
        }
    }

    /// Writes a report line now, so a long run shows its progress.
    private func write(_ text: String) {
        StandardStreams.report(text, as: (ScenarioFormat(rawValue: format.rawValue) ?? .text).notation)
    }
}
