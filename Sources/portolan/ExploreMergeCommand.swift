import ArgumentParser
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

/// `portolan explore merge`: joins the shard files of one exploration (`explore --shard i/n`) into
/// the report one run would have given, byte for byte (docs/explore.md, "Splitting a run").
struct ExploreMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the shard files of one exploration into its report.",
        discussion: """
            Every shard of the run, 1/n to n/n, each once: the app is loaded again to rebuild what \
            was explored, and the report is the one a single run would have printed.

            """ + ExitStatusHelp.paragraph([
                (0, "no finding of a --fail-on kind (every kind by default)"),
                (1, "a finding of a --fail-on kind"),
                (2, "a shard file could not be read, the shards do not make one run, or the app did not load"),
            ])
    )

    @Argument(help: ArgumentHelp("The shard files, as explore --shard wrote them.", valueName: "shard.json"))
    var shards: [String]

    @OptionGroup var output: ExploreReportOutput

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("Give the shard files to merge.") }
        try output.check()
    }

    func run() async throws {
        var files: [ExploreShardFile] = []
        let report: ExploreReport
        do {
            for path in shards {
                let bytes = try CommandInput.bytes(of: path, orSay: "explore merge: cannot read \(path)")
                files.append(try ExploreShardFile(bytes: bytes, name: path))
            }
            report = try await ExploreMerge.report(of: files, keepsEdges: output.needsEdges)
        } catch let error as HostError {
            StandardStreams.errorLine("explore merge: \(error.message)")
            throw ExitCode(2)
        }
        let scenarios = files.first.map(\.scenarioFiles) ?? []
        try await output.emit(report, app: report.app, snapshot: nil, scenarioFiles: scenarios, jobs: 1)
    }
}
