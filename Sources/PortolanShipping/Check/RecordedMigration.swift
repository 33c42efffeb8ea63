import Lua

/// One version's migration as the linter reads it from the root's `migrations`: its data, not its
/// `context` function.
struct RecordedMigration {
    var version: Int
    var renamed: [(old: String, new: String)]
    var removed: [String]
    var moved: [(id: String, lineage: [String])]

    init?(lua value: LuaValue) {
        guard let version = value["version"].intValue.flatMap({ Int(exactly: $0) }) else { return nil }
        self.version = version
        renamed = (value["renamed"].arrayValue ?? []).compactMap { pair in
            guard let old = pair[.integer(1)].stringValue, let new = pair[.integer(2)].stringValue else { return nil }
            return (old, new)
        }
        removed = (value["removed"].arrayValue ?? []).compactMap(\.stringValue)
        moved = (value["moved"].arrayValue ?? []).compactMap { pair in
            guard let id = pair[.integer(1)].stringValue else { return nil }
            return (id, (pair[.integer(2)].arrayValue ?? []).compactMap(\.stringValue))
        }
    }
}
