import ArgumentParser
import Lua
import Portolan
import PortolanShipping
import PortolanTools

/// What `portolan explore` and `portolan explore merge` make of a report: its format on standard
/// output, the repro files, the drawing, the coverage page, and the exit status `--fail-on` sets.
struct ExploreReportOutput: ParsableArguments {
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

    /// Whether the report must keep its edges: for the drawing and the coverage page only.
    var needsEdges: Bool { graph != nil || coverageHTML != nil }

    /// Whether any of these was given (a shard writes no report).
    var isGiven: Bool { format != "text" || !failOn.isEmpty || reproDir != nil || graph != nil || coverageHTML != nil }

    func check() throws {
        guard ExploreFormat(rawValue: format) != nil else { throw ValidationError("--format must be text, json, junit or github, not \(format).") }
        _ = try failKinds()
        if let graph, !(graph.hasSuffix(".dot") || graph.hasSuffix(".svg")) {
            throw ValidationError("--graph needs a .dot or .svg file, not \(graph).")
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

    /// Writes the repros, the drawing and the coverage page, prints the report, and sets the exit status.
    func emit(_ report: ExploreReport, app: String, snapshot: [UInt8]?, scenarioFiles: [String], jobs: Int) async throws {
        let reproFiles = try writeRepros(report, snapshot: snapshot)
        if let graph {
            // Ids are the app's, and a CI step may print the drawing, as `graph` does.
            let drawing = graph.hasSuffix(".svg") ? CILogText.safe(ExploreGraph.svg(report), as: .xml) : CILogText.safe(ExploreGraph.dot(report))
            try write(drawing, to: graph)
        }
        if let coverageHTML, let declared = report.graph, let explored = report.coverage {
            let runner = ScenarioRunner(options: .init(app: app, jobs: jobs, coverage: true))
            let results = scenarioFiles.isEmpty ? [] : await runner.run(files: scenarioFiles)
            let measured = ScenarioRunner.coverage(of: results, graph: declared)
            try write(CoverageHTML.render(measured, app: app, explored: explored), to: coverageHTML)
        }
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
            try write(ExploreRepro.scenario(for: finding, in: report, from: from), to: file)
            files.append(file)
        }
        return files
    }

    private func write(_ text: String, to file: String) throws {
        do {
            try WholeFile.write(text, to: file)
        } catch {
            StandardStreams.errorLine("explore: \(error.description)")
            throw ExitCode(2)
        }
    }
}
