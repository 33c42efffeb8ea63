import ArgumentParser
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools
import Synchronization

/// `portolan explore [run]`: walks every reachable state of an app with its real handlers, and
/// reports each problem with the shortest scenario that shows it (docs/explore.md).
struct ExploreRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Explore every reachable state of an app and report what goes wrong.",
        discussion: """
            Breadth first from the app's initial state (or --from a snapshot), each state restored \
            with the snapshot restore: routes to every declared node with example contexts, URLs that \
            match each pattern and one that does not, back, refresh, resume, tab taps, flow steps, and \
            the changes of state the root's explore option names. Findings: \
            \(ExploreFinding.Kind.allCases.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", ")). \
            --repro-dir writes each finding's shortest repro as a scenario file that fails under \
            portolan test. The report is the same, byte for byte, with any --jobs, unless --time cuts the run.

            """ + ExitStatusHelp.paragraph([
                (0, "no finding of a --fail-on kind (every kind by default)"),
                (1, "a finding of a --fail-on kind"),
                (2, "the app did not load, or a file could not be read or written"),
            ])
    )

    @OptionGroup var script: AppScript

    @Option(help: ArgumentHelp("A snapshot to start from instead of the initial state.", valueName: "snapshot.json"))
    var from: String?

    @Option(help: "How many actions from the start to explore.")
    var depth = 6

    @Option(help: "How many states to visit at most.")
    var states = 2_000

    @Option(help: ArgumentHelp("How long to explore at most.", valueName: "seconds"))
    var time: Double = 300

    @OptionGroup var output: ExploreReportOutput

    @Option(help: "How many hosts explore at once; the report is the same.")
    var jobs = 1

    @Option(help: "The seed of math.random in every host.")
    var seed = 1

    @Option(help: ArgumentHelp("Run the actions of one state in N twice to see that they are deterministic (every state within depth \(ExploreOptions.recheckDepth); 1: every state).", valueName: "N"))
    var recheck = 4

    @Option(help: ArgumentHelp("Print how far the run has gone to standard error this often (0: never).", valueName: "seconds"))
    var progress: Double = 10

    @Option(name: .customLong("handler-timeout"), help: ArgumentHelp("How long one handler or guard may take.", valueName: "seconds"))
    var handlerTimeout: Double = 2

    @Option(name: .customLong("handler-budget"), help: ArgumentHelp("Lua instructions one handler or guard may run.", valueName: "N"))
    var handlerBudget = 1_000_000

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Scenario files whose literal contexts, payloads and URLs are examples (every .lua file beneath scenarios/ beside the app by default).", valueName: "file.lua|dir"))
    var scenarios: [String] = []

    @Option(help: ArgumentHelp("Explore one part of the run and write its shard file to standard output, for explore merge (docs/explore.md).", valueName: "i/n"))
    var shard: String?

    func validate() throws {
        guard depth >= 0, states >= 1, jobs >= 1, recheck >= 1 else {
            throw ValidationError("--depth must be at least 0, --states, --jobs and --recheck at least 1.")
        }
        guard time > 0, ScriptNumbers.duration(seconds: time) != nil,
              handlerTimeout > 0, ScriptNumbers.duration(seconds: handlerTimeout) != nil else {
            throw ValidationError("--time and --handler-timeout must be positive numbers of seconds up to \(Int64(ScriptNumbers.maxSeconds)).")
        }
        guard handlerBudget >= 1 else { throw ValidationError("--handler-budget must be at least 1.") }
        guard progress == 0 || (progress > 0 && ScriptNumbers.duration(seconds: progress) != nil) else {
            throw ValidationError("--progress must be 0 or a positive number of seconds up to \(Int64(ScriptNumbers.maxSeconds)).")
        }
        if let shard {
            guard ExploreShard(shard) != nil else {
                throw ValidationError("--shard must be i/n, a shard from 1 to n of at most \(ExploreShard.most), not \(shard).")
            }
            guard from == nil, !output.isGiven else {
                throw ValidationError("--shard writes the shard's file: give --from none, and the report's options to explore merge.")
            }
        }
        try output.check()
    }

    /// Writes a progress line to standard error at most once per `interval`: a short run prints none.
    static func progressLines(every interval: Duration) -> @Sendable (ExploreProgress) -> Void {
        let lastLine = Mutex(Duration.zero)
        return { progress in
            let due = lastLine.withLock { last in
                guard progress.elapsed - last >= interval else { return false }
                last = progress.elapsed
                return true
            }
            if due { StandardStreams.errorLine("explore: " + progress.text) }
        }
    }

    func run() async throws {
        let snapshot = try from.map { path in try CommandInput.bytes(of: path, orSay: "explore: cannot read the snapshot \(path)") }
        let scenarioFiles: [String]
        do {
            scenarioFiles = scenarios.isEmpty ? try ScenarioFiles.beside(app: script.path) : try ScenarioFiles.expand(scenarios, excludingApp: script.path)
        } catch {
            StandardStreams.errorLine("explore: \(error.description)")
            throw ExitCode(2)
        }
        var options = ExploreOptions(
            depth: depth, states: states, seconds: time,
            handlerTimeout: ScriptNumbers.duration(seconds: handlerTimeout) ?? .seconds(2),
            handlerInstructionBudget: handlerBudget, jobs: jobs, seed: seed,
            scenarioFiles: scenarioFiles, recheck: recheck)
        options.keepsEdges = output.needsEdges
        let explorer = Explorer(app: script.path, options: options, from: snapshot)
        let told = progress > 0 ? ScriptNumbers.duration(seconds: progress).map(Self.progressLines) : nil
        let report: ExploreReport
        do {
            if let shard = shard.flatMap(ExploreShard.init) {
                StandardStreams.report(try await explorer.run(shard: shard, progress: told).text, as: .json)
                return
            }
            report = try await explorer.run(progress: told)
        } catch {
            StandardStreams.errorLine("explore: \(error.message)")
            throw ExitCode(2)
        }
        try await output.emit(report, app: script.path, snapshot: snapshot, scenarioFiles: scenarioFiles, jobs: jobs)
    }
}
