import Lua
import Portolan

/// How a declaration's value is read from the table Lua hands over, with the messages
/// `portolan.app` raises at the script's line and `portolan check` reports at the option's own:
/// the one reading of the root's options (`AppOptions`), migrations (`DeclaredMigration`) and
/// `explore` (`ExploreDeclaration`), for the module and the linter alike.
package enum DeclaredValue {
    /// A value as messages show it: `"latest-wins"` (cut at 80 bytes), `12`, `1.5`, `true`, `a table`.
    static func shown(_ value: LuaValue) -> String {
        switch value {
        case .string(let text): "\"\(Excerpt.cut(text, toBytes: 80))\""
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .boolean(let flag): "\(flag)"
        default: "a \(value.typeName)"
        }
    }

    /// Choices as messages list them: `"fifo" or "latest_wins"`, `"a", "b" or "c"`.
    package static func either(_ choices: [String]) -> String {
        let quoted = choices.map { "\"\($0)\"" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// A table's key as a message names it: a name as written, anything else as `shown`.
    static func key(_ value: LuaValue) -> String {
        if case .string(let name) = value { return name }
        return shown(value)
    }

    /// The items of a list as `ipairs` walks them: from 1 up to the first missing index.
    static func items(_ value: LuaValue) -> [LuaValue] {
        guard case .table(let table) = value else { return [] }
        var items: [LuaValue] = []
        while let item = table[.integer(Int64(items.count + 1))] { items.append(item) }
        return items
    }

    /// The fields of a table keyed by name, sorted by name; anything but a table, or a key that is
    /// no name, is refused, naming `field`.
    static func named(_ value: LuaValue, at field: String) throws(DeclarationError) -> [(name: String, value: LuaValue)] {
        guard case .table(let table) = value else { throw DeclarationError(message: "\(field) must be a table keyed by name") }
        var fields: [(name: String, value: LuaValue)] = []
        for (key, item) in table {
            guard case .string(let name) = key else { throw DeclarationError(message: "\(field)'s keys must be names, not \(Self.key(key))") }
            fields.append((name, item))
        }
        return fields.sorted { $0.name < $1.name }
    }

    /// A list of node ids (`removed`, `explore.back`).
    static func ids(_ value: LuaValue, at field: String) throws(DeclarationError) -> [NodeID] {
        guard case .table = value else { throw DeclarationError(message: "\(field) must be a list of node ids") }
        var ids: [NodeID] = []
        for (index, item) in items(value).enumerated() {
            guard case .string(let id) = item else {
                throw DeclarationError(message: "\(field)[\(index + 1)] must be a node id, not \(Self.key(item))")
            }
            ids.append(id)
        }
        return ids
    }

    /// Refuses a table with a field not in `fields`, naming them all.
    static func refuseUnknownFields(of table: [LuaValue: LuaValue], in fields: [String], at what: String) throws(DeclarationError) {
        for key in table.keys where !(key.stringValue.map(fields.contains) ?? false) {
            throw DeclarationError(message: "\(what) has no field \(Self.key(key)) (\(fields.joined(separator: ", ")))")
        }
    }
}
