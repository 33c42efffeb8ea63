import Lua
import Portolan

/// One version's migration as the root declares it (`migrations = { [N] = { renamed =, removed =,
/// moved =, context =, incompatible = } }`, docs/snapshots.md): read once, for the host, which makes
/// it a `SnapshotMigration`, and for the linter, which checks its ids against the rules.
package struct DeclaredMigration: Sendable {
    package let version: Int
    /// Old id to new, sorted by the old.
    package var renamed: [(old: NodeID, new: NodeID)] = []
    package var removed: [NodeID] = []
    /// A node to the ids of its new ancestors, sorted by the node.
    package var moved: [(id: NodeID, lineage: [NodeID])] = []
    package var isIncompatible = false
    /// Its `context(id, ctx)`, which the host calls through its runner.
    var context: HostLuaFunction?

    static let fields = ["renamed", "removed", "moved", "context", "incompatible"]

    /// The root's `migrations`: by version, each checked.
    static func all(lua value: LuaValue) throws(DeclarationError) -> [Int: DeclaredMigration] {
        guard case .table(let table) = value else { throw DeclarationError(message: "migrations must be a table keyed by version") }
        let versions = RulesIdentity.versions
        var migrations: [Int: DeclaredMigration] = [:]
        for (key, step) in table {
            guard case .integer(let number) = key, let version = Int(exactly: number), versions.contains(version) else {
                throw DeclarationError(message:
                    "migrations' keys must be versions from \(versions.lowerBound) to \(versions.upperBound), not \(DeclaredValue.key(key))")
            }
            migrations[version] = try DeclaredMigration(lua: step, version: version)
        }
        return migrations
    }

    init(lua step: LuaValue, version: Int) throws(DeclarationError) {
        self.version = version
        let at = "migrations[\(version)]"
        guard case .table(let table) = step else { throw DeclarationError(message: "\(at) must be a table") }
        try DeclaredValue.refuseUnknownFields(of: table, in: Self.fields, at: at)
        if let renames = table[.string("renamed")] {
            guard case .table(let pairs) = renames else { throw Self.badRenames(at) }
            for (old, new) in pairs {
                guard case .string(let old) = old, case .string(let new) = new else { throw Self.badRenames(at) }
                renamed.append((old, new))
            }
            renamed.sort { $0.old < $1.old }
        }
        if let list = table[.string("removed")] { removed = try DeclaredValue.ids(list, at: "\(at).removed") }
        if let moves = table[.string("moved")] {
            guard case .table(let pairs) = moves else { throw DeclarationError(message: "\(at).moved must map node ids to lists of node ids") }
            for (id, lineage) in pairs {
                guard case .string(let id) = id else { throw DeclarationError(message: "\(at).moved's keys must be node ids") }
                moved.append((id, try DeclaredValue.ids(lineage, at: "\(at).moved.\(id)")))
            }
            moved.sort { $0.id < $1.id }
        }
        switch table[.string("incompatible")] {
        case nil: break
        case .boolean(let flag)?: isIncompatible = flag
        default: throw DeclarationError(message: "\(at).incompatible must be true or false")
        }
        switch table[.string("context")] {
        case nil: break
        case let function? where function.typeName == "function": context = HostLuaFunction(function)
        default: throw DeclarationError(message: "\(at).context must be a function(id, context)")
        }
    }

    private static func badRenames(_ at: String) -> DeclarationError {
        DeclarationError(message: "\(at).renamed must map old ids to new ids, as { old = \"new\" }")
    }
}
