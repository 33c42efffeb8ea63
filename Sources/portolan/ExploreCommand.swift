import ArgumentParser
import Lua
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan explore`: walks every reachable state of an app with its real handlers, and reports
/// each problem with the shortest scenario that shows it (docs/explore.md).
struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
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

    @Option(help: "text, json, junit or github.")
    var format: String = "text"

    @Option(name: .customLong("fail-on"), parsing: .upToNextOption,
            help: ArgumentHelp("The kinds of finding that make the exit status 1 (names or numbers; all by default, none for none).", valueName: "kind"))
    var failOn: [String] = []

    @Option(name: .customLong("repro-dir"), help: ArgumentHelp("Write each finding's repro scenario here.", valueName: "dir"))
    var reproDir: String?

    @Option(help: ArgumentHelp("Draw the explored states, findings marked: a .dot or .svg file.", valueName: "file"))
    var graph: String?

    @Option(name: .customLong("coverage-html"),
            help: ArgumentHelp("Write the coverage page: what the app's scenarios and the exploration each reached.", valueName: "file.html"))
    var coverageHTML: String?

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

    func validate() throws {
        guard ExploreFormat(rawValue: format) != nil else { throw ValidationError("--format must be text, json, junit or github, not \(format).") }
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
        _ = try failKinds()
        if let graph, !(graph.hasSuffix(".dot") || graph.hasSuffix(".svg")) {
            throw ValidationError("--graph needs a .dot or .svg file, not \(graph).")
        }
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

    /// The kinds `--fail-on` names: every kind when it names none, no kind for `none`.
    func failKinds() throws -> Set<ExploreFinding.Kind> {
        let names = failOn.flatMap { $0.split(separator: ",").map(String.init) }
        if names.isEmpty { return Set(ExploreFinding.Kind.allCases) }
        if names == ["none"] { return [] }
        var kinds: Set<ExploreFinding.Kind> = []
        for name in names {
            guard let kind = ExploreFinding.Kind(name: name) else {
                throw ValidationError("--fail-on: no kind \(name); the kinds are \(ExploreFinding.Kind.allCases.map(\.name).joined(separator: ", ")), or none.")
            }
            kinds.insert(kind)
        }
        return kinds
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
        let options = ExploreOptions(
            depth: depth, states: states, seconds: time,
            handlerTimeout: ScriptNumbers.duration(seconds: handlerTimeout) ?? .seconds(2),
            handlerInstructionBudget: handlerBudget, jobs: jobs, seed: seed,
            scenarioFiles: scenarioFiles, recheck: recheck)
        let report: ExploreReport
        do {
            report = try await Explorer(app: script.path, options: options, from: snapshot)
                .run(progress: progress > 0 ? ScriptNumbers.duration(seconds: progress).map(Self.progressLines) : nil)
        } catch {
            StandardStreams.errorLine("explore: \(error.message)")
            throw ExitCode(2)
        }
        let reproFiles = try writeRepros(report, snapshot: snapshot)
        if let graph {
            do {
                // Ids are the app's, and a CI step may print the drawing, as `graph` does.
                let drawing = graph.hasSuffix(".svg")
                    ? CILogText.safe(ExploreGraph.svg(report), as: .xml) : CILogText.safe(ExploreGraph.dot(report))
                try WholeFile.write(drawing, to: graph)
            } catch {
                StandardStreams.errorLine("explore: \(error.description)")
                throw ExitCode(2)
            }
        }
        if let coverageHTML { try await writeCoverage(report, scenarioFiles: scenarioFiles, to: coverageHTML) }
        let reportFormat = ExploreFormat(rawValue: format) ?? .text
        let text = reportFormat.render(report, reproFiles: reproFiles)
        if let notation = reportFormat.notation {
            StandardStreams.report(text, as: notation)
        } else {
            StandardStreams.annotations(text)
        }
        let failing = try failKinds()
        if report.findings.contains(where: { failing.contains($0.kind) }) { throw ExitCode(1) }
    }

    private func writeRepros(_ report: ExploreReport, snapshot: [UInt8]?) throws -> [String?] {
        guard let reproDir else { return [] }
        do {
            _ = try OutputFolder(reproDir, creating: true)
        } catch {
            StandardStreams.errorLine("explore: cannot make the folder \(reproDir): \(error.description)")
            throw ExitCode(2)
        }
        let from = snapshot.map { String(decoding: $0, as: UTF8.self) }
        var files: [String?] = []
        for (index, finding) in report.findings.enumerated() {
            let file = (reproDir.hasSuffix("/") ? reproDir : reproDir + "/") + ExploreRepro.fileName(index: index, finding: finding)
            do {
                try WholeFile.write(ExploreRepro.scenario(for: finding, in: report, from: from), to: file)
            } catch {
                StandardStreams.errorLine("explore: \(error.description)")
                throw ExitCode(2)
            }
            files.append(file)
        }
        return files
    }

    /// The coverage page: the scenarios beside the app run with coverage, and the exploration's.
    private func writeCoverage(_ report: ExploreReport, scenarioFiles: [String], to file: String) async throws {
        guard let graph = report.graph, let explored = report.coverage else { return }
        let runner = ScenarioRunner(options: .init(app: script.path, jobs: jobs, coverage: true))
        let results = scenarioFiles.isEmpty ? [] : await runner.run(files: scenarioFiles)
        let measured = ScenarioRunner.coverage(of: results, graph: graph)
        do {
            try WholeFile.write(CoverageHTML.render(measured, app: script.path, explored: explored), to: file)
        } catch {
            StandardStreams.errorLine("explore: \(error.description)")
            throw ExitCode(2)
        }
    }
}
