/// Why a document is not a snapshot this engine can read: the reason a restore is refused.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = Excerpt.cut(reason, toBytes: 1_024)
    }

    /// A field of the wrong shape, named by its path in the document (`tree.children[2].id`).
    static func field(_ path: String, _ expected: String) -> SnapshotError {
        SnapshotError("not a snapshot: '\(path)' should be \(expected)")
    }

    public var description: String { reason }
}
