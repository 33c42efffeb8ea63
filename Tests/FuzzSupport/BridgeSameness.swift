#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Lua

/// When a value that went through Lua is the value that went in.
///
/// `LuaValue`'s own `==` is not the question: it says NaN differs from itself, takes -0.0 for 0.0,
/// and compares strings as Swift text (canonically equivalent strings are equal), while Lua keeps
/// bytes. And Lua normalises what Swift may hold: a float key with an integer value becomes an
/// integer key, bytes that are valid UTF-8 come back as a string, a nil value is no entry at all.
public enum BridgeSameness {
    /// What Lua gives back for `value`.
    public static func normalised(_ value: LuaValue) -> LuaValue {
        switch value {
        case .bytes(let bytes): return LuaValue(bytes: bytes)
        case .table(let table):
            var result: [LuaValue: LuaValue] = [:]
            for (key, item) in table where item != .nil {
                result[normalisedKey(key)] = normalised(item)
            }
            return .table(result)
        default: return value
        }
    }

    /// What Lua makes of `key` as a table key: an integral float is the integer.
    public static func normalisedKey(_ key: LuaValue) -> LuaValue {
        if case .number(let number) = key, let integer = Int64(exactly: number) { return .integer(integer) }
        return normalised(key)
    }

    /// Equal as Lua sees values: NaN is NaN (any payload), -0.0 is not 0.0, strings are their
    /// bytes, tables have the same keys (byte for byte) with the same values.
    public static func same(_ lhs: LuaValue, _ rhs: LuaValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            return a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)):
            return sameBytes(a, b)
        case (.table(let a), .table(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, item in
                // A table key holding NaN finds nothing by hashing (NaN is not equal to itself).
                let other = b.index(forKey: key).map { b[$0] } ?? b.first { same(key, $0.key) }
                return other.map { same(key, $0.key) && same(item, $0.value) } ?? false
            }
        default:
            return lhs == rhs
        }
    }

    /// Byte for byte, with memcmp: a string of several MiB compares at once even in a debug build.
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                guard a.count == b.count else { return false }
                guard let first = a.baseAddress, let second = b.baseAddress else { return true }
                return memcmp(first, second, a.count) == 0
            }
        }
    }
}
