import ArgumentParser
import Lua
import Portolan
import PortolanLua
import PortolanTools

/// `portolan snapshot`: tools for saved states (docs/snapshots.md).
struct Snapshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Compare saved states, and check that they survive a rules change.",
        subcommands: [SnapshotDiffCommand.self, SnapshotMigrateCommand.self]
    )
}

/// Reads a snapshot file for a command, or ends it with status 2 (the job is wrong).
private func snapshotBytes(_ file: String, command: String) throws -> [UInt8] {
    try CommandInput.bytes(of: file, orSay: "portolan snapshot \(command): cannot read \(file)")
}

struct SnapshotDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "What differs between two snapshots, in the event vocabulary (enter, leave, switch).",
        discussion: ExitStatusHelp.paragraph([
            (0, "the snapshots hold the same state"), (1, "they differ"), (2, "a file cannot be read or is not a snapshot"),
        ])
    )

    @Argument(help: "The first snapshot.") var first: String
    @Argument(help: "The second snapshot.") var second: String

    func run() async throws {
        var documents: [SnapshotDocument] = []
        for file in [first, second] {
            switch SnapshotReader.document(from: try snapshotBytes(file, command: "diff")) {
            case .success(let document): documents.append(document)
            case .failure(let error):
                StandardStreams.errorLine("portolan snapshot diff: \(file): \(error.reason)")
                throw ExitCode(2)
            }
        }
        let lines = SnapshotDiff.lines(from: documents[0], to: documents[1])
        guard !lines.isEmpty else {
            StandardStreams.report("(the same state)")
            return
        }
        StandardStreams.report(lines.joined(separator: "\n"))
        throw ExitCode(1)
    }
}

struct SnapshotMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Dry-run restoring a snapshot into an app and print the outcome, for CI.",
        discussion: """
            The restore runs in a host of its own, thrown away after: nothing is written. The saved \
            state breaks when the restore is refused, or when it loses what no migration declares.

            """ + ExitStatusHelp.paragraph([
                (0, "the saved state survives: restored, or migrated by declared changes only"),
                (1, "the saved state breaks under these rules"),
                (2, "the snapshot or the app cannot be read or loaded"),
            ])
    )

    @Argument(help: "The snapshot file.") var file: String
    @Option(help: ArgumentHelp("The app script to restore it into.", valueName: "APP")) var app: String

    func run() async throws {
        let bytes = try snapshotBytes(file, command: "migrate")
        let check: SnapshotMigrationCheck
        do {
            check = try await SnapshotMigrationCheck.run(snapshot: bytes, app: app)
        } catch {
            StandardStreams.errorLine("portolan snapshot migrate: \(error.message)")
            throw ExitCode(2)
        }
        StandardStreams.report(check.text)
        if !check.survives { throw ExitCode(1) }
    }
}
