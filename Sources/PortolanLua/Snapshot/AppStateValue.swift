import Lua
import Portolan

/// A Lua value of the app's state as JSON, for a snapshot, and back. What can't be saved is
/// refused with its path in the state (`state.cart.items[2]: a function cannot be saved`), never
/// dropped: functions, userdata, coroutines, strings that are not UTF-8, NaN and infinities, keys
/// that are neither strings nor a sequence's integers, and nesting past
/// `SnapshotLimits.maximumStateNesting`. (A table that contains itself is refused by the
/// conversion from Lua, before a path exists.)
public enum AppStateValue {
    public static func json(from value: LuaValue, path: String = "state", depth: Int = 0) throws(SnapshotError) -> JSONValue {
        switch value {
        case .nil: return .null
        case .boolean(let flag): return .boolean(flag)
        case .integer(let integer): return .integer(integer)
        case .number(let number):
            guard number.isFinite else { throw SnapshotError("cannot save \(path): NaN or an infinity") }
            return .number(normalizing: number)
        case .string(let string): return .string(string)
        case .bytes: throw SnapshotError("cannot save \(path): a string that is not UTF-8")
        case .function: throw SnapshotError("cannot save \(path): a function")
        case .userdata: throw SnapshotError("cannot save \(path): a userdata")
        case .thread: throw SnapshotError("cannot save \(path): a coroutine")
        case .table(let table):
            guard depth < SnapshotLimits.maximumStateNesting else {
                throw SnapshotError("cannot save \(path): tables nest deeper than \(SnapshotLimits.maximumStateNesting)")
            }
            return try self.table(table, path: path, depth: depth)
        }
    }

    private static func table(_ table: [LuaValue: LuaValue], path: String, depth: Int) throws(SnapshotError) -> JSONValue {
        if !table.isEmpty, table.keys.allSatisfy({ if case .integer = $0 { true } else { false } }) {
            var elements: [JSONValue] = []
            for index in 1...table.count {
                guard let element = table[.integer(Int64(index))] else {
                    throw SnapshotError("cannot save \(path): a table with integer keys that is not a sequence 1..n")
                }
                elements.append(try json(from: element, path: "\(path)[\(index)]", depth: depth + 1))
            }
            return .array(elements)
        }
        var members: [String: JSONValue] = [:]
        for (key, element) in table {
            guard case .string(let name) = key else {
                throw SnapshotError("cannot save \(path): a key that is not a string (\(key.typeName))")
            }
            members[name] = try json(from: element, path: "\(path).\(name)", depth: depth + 1)
        }
        return .object(members)
    }

    /// The saved value as Lua's: objects and arrays become tables.
    public static func lua(from value: JSONValue) -> LuaValue {
        switch value {
        case .null: .nil
        case .boolean(let flag): .boolean(flag)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(number)
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(lua))
        case .object(let members): .table(Dictionary(uniqueKeysWithValues: members.map { (.string($0.key), lua(from: $0.value)) }))
        }
    }
}
