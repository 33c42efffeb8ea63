import Lua
import Portolan
import PortolanLua
import PortolanShipping

/// `portolan snapshot migrate FILE --app APP`: a dry run of restoring a saved state into an app,
/// for CI ("will last release's saved states survive this rules change?"). The restore runs in a
/// host of its own, thrown away after, so nothing persists; its outcome is the report.
///
/// The state breaks when the restore is refused, or when it loses something no migration declared
/// (a `dropped` or `forgotten` change): the rules changed under the state without saying how.
public struct SnapshotMigrationCheck: Sendable {
    public let outcome: RestoreOutcome

    /// Whether the saved state survives the rules: restored, or migrated by declared changes only.
    public var survives: Bool {
        switch outcome {
        case .refused: false
        case .restored: true
        case .migrated(let changes, _, _): changes.allSatisfy(\.isDeclared)
        }
    }

    /// The outcome, one change a line, each note (`note:`, which does not break the state), and
    /// the verdict.
    public var text: String {
        var lines: [String]
        switch outcome {
        case .migrated(_, let guards, _), .restored(let guards, _):
            lines = [outcome.name] + outcome.changes.map { "  \($0.isDeclared ? "" : "undeclared: ")\($0)" }
            if case .redirected(let destination) = guards { lines.append("  then a guard redirected to '\(destination)'") }
        case .refused:
            lines = [outcome.description]
        }
        lines += outcome.notes.map { "  note: \($0)" }
        lines.append(survives
            ? "ok: the saved state survives these rules"
            : "error: the saved state breaks under these rules: " + (outcome.name == "refused"
                ? "it is refused" : "it loses what no migration declares; declare it in migrations (docs/snapshots.md)"))
        return lines.joined(separator: "\n")
    }

    /// Restores `snapshot` (the file's bytes) into a fresh host with `app` loaded.
    public static func run(snapshot bytes: [UInt8], app: String) async throws(HostError) -> SnapshotMigrationCheck {
        let host = try PortolanHost(configuration: AppLoadLimits.configuration)
        await host.setOutput { _ in }
        try await AppLoadLimits.loadApp(host, file: app)
        return SnapshotMigrationCheck(outcome: await host.restore(bytes))
    }
}

extension SnapshotChange {
    /// Whether the rules declared this change (a migration), rather than the conservative rule
    /// finding something gone.
    public var isDeclared: Bool {
        switch self {
        case .renamed, .removed, .moved, .contextChanged, .stateKeyAdded, .stateKeyDropped, .stateKeyReturned: true
        case .dropped, .forgotten: false
        }
    }
}
