import Crypto
import Portolan

/// One state of an app as the explorer knows it (docs/explore.md): its snapshot without the
/// history of routes (the tree with every context, the kept stacks, the switches' histories,
/// the pending destination and the app's declared state). Two states are the same when their
/// canonical snapshots are the same bytes; Lua state the app did not declare is not part of it.
public struct ExploreState: Sendable, Hashable {
    /// The first 64 bits of the SHA-256 of the snapshot's canonical bytes: what tells states apart,
    /// as a model checker's fingerprint does. Visited states keep only this, not their snapshot;
    /// the report prints the chance that two states met share one (`ExploreReport.fingerprintCollisionOdds`).
    public let fingerprint: UInt64
    /// The document a restore takes.
    public let document: SnapshotDocument
    /// The active path, root first, with contexts.
    public let path: [Entry]

    /// The state of `document`, whose history is dropped: where routes went is not where the app is.
    public init(document: SnapshotDocument, path: [Entry]) throws(SnapshotError) {
        let withoutHistory = SnapshotDocument(
            rules: document.rules, tree: document.tree, switchHistory: document.switchHistory,
            pending: document.pending, state: document.state)
        self.document = withoutHistory
        self.fingerprint = Self.fingerprint(of: try withoutHistory.canonicalBytes())
        self.path = path
    }

    /// The first 8 bytes of the digest, big-endian: the same on every machine, so that shards and
    /// runs agree on which state is which.
    static func fingerprint(of bytes: [UInt8]) -> UInt64 {
        SHA256.hash(data: bytes).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The part of the state a failed route must leave as it was: the tree and the switches'
    /// histories (a handler may change the app's state; a route's rollback does not undo that).
    public var tree: String {
        let members = document.json.objectValue ?? [:]
        return String(decoding: CanonicalJSON.bytes(of: .object([
            "tree": members["tree"] ?? .null, "switch_history": members["switch_history"] ?? .null,
        ])), as: UTF8.self)
    }

    /// `root > a > b {id=1}`
    public var pathText: String { Self.text(of: path) }

    static func text(of path: [Entry]) -> String { path.map(\.description).joined(separator: " > ") }

    public static func == (lhs: ExploreState, rhs: ExploreState) -> Bool { lhs.fingerprint == rhs.fingerprint }
    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}
