/// Which rules wrote a snapshot: the version the app declares (`version = N` on its root, 1 when
/// it declares none) and a hash of the rules' files (`sha256:` and 64 lowercase hex digits), which
/// the host computes; the engine only compares it.
public struct RulesIdentity: Sendable, Equatable {
    public let version: Int
    public let hash: String

    /// The versions an app may declare.
    public static let versions = 1...1_000_000

    public init(version: Int, hash: String) {
        self.version = version
        self.hash = hash
    }

    var json: JSONValue {
        .object(["version": .integer(Int64(version)), "hash": .string(hash)])
    }

    init(json: JSONValue) throws(SnapshotError) {
        guard let members = json.objectValue else { throw .field("rules", "an object") }
        guard let saved = members["version"]?.integerValue, let version = Int(exactly: saved), Self.versions.contains(version) else {
            throw .field("rules.version", "an integer from 1 to \(Self.versions.upperBound)")
        }
        guard let hash = members["hash"]?.stringValue, hash.utf8.count <= 128 else {
            throw .field("rules.hash", "a string of at most 128 bytes")
        }
        self.init(version: version, hash: hash)
    }
}
