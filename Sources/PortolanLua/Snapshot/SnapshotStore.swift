import Portolan
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A host's store of its saved state (docs/snapshots.md, "Quarantine"): a directory holding the
/// last snapshot (`snapshot.json`) and, while a restore of it runs, a marker (`restoring`) with
/// the snapshot's digest and how many restores of it have failed. The marker is written before the
/// restore and cleared after one that succeeds, so a restore that crashed the process is counted
/// at the next start as one that failed. A snapshot that failed twice is refused, and says so: the
/// crash loop of a stale saved state, closed.
public struct SnapshotStore: Sendable {
    public let directory: String
    /// How many failed restores of one snapshot the store allows before it refuses it.
    public static let attempts = 2

    public init(directory: String) {
        self.directory = directory
    }

    var snapshotFile: URL { URL(fileURLWithPath: directory).appendingPathComponent("snapshot.json") }
    var markerFile: URL { URL(fileURLWithPath: directory).appendingPathComponent("restoring") }

    /// What a start did with the store.
    public enum StartOutcome: Sendable, Equatable {
        /// No snapshot saved: the app starts afresh.
        case nothingSaved
        /// The restore's own outcome.
        case restore(RestoreOutcome)
        /// The saved snapshot failed `attempts` times and is not restored again; why.
        case quarantined(String)
    }

    /// Saves the host's state, replacing the last snapshot (written whole, then renamed), and
    /// forgets any count of failed restores.
    public func save(from host: PortolanHost) async throws {
        let bytes = try await host.snapshotBytes()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: snapshotFile, options: .atomic)
        try? FileManager.default.removeItem(at: markerFile)
    }

    /// Restores the saved snapshot into `host`, counting failures across starts.
    public func restoreOnStart(into host: PortolanHost) async -> StartOutcome {
        guard let data = try? Data(contentsOf: snapshotFile) else { return .nothingSaved }
        let bytes = [UInt8](data)
        let digest = Self.digest(of: bytes)
        let failures = previousFailures(of: digest)
        guard failures < Self.attempts else {
            return .quarantined(
                "the saved snapshot failed to restore \(failures) times (a failed route or a crash of the process); "
                    + "it is not restored again: \(snapshotFile.path)")
        }
        // Counted as failed until it succeeds: a crash during the restore leaves this behind.
        try? Data("\(digest) \(failures + 1)\n".utf8).write(to: markerFile, options: .atomic)
        let outcome = await host.restore(bytes)
        if outcome.name != "refused" { try? FileManager.default.removeItem(at: markerFile) }
        return .restore(outcome)
    }

    /// The marker's name for a snapshot: the SHA-256 of its bytes, in hex.
    public static func digest(of bytes: [UInt8]) -> String {
        SHA256Text.of(bytes)
    }

    /// How many restores of the snapshot with `digest` failed, by the marker (0 for another snapshot).
    private func previousFailures(of digest: String) -> Int {
        guard let data = try? Data(contentsOf: markerFile) else { return 0 }
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, fields[0] == digest, let count = Int(fields[1]) else { return 0 }
        return count
    }
}
