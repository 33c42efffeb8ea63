import Lua

/// What a value holds, counted the way `LuaMadeValues.lua` counts what Lua made: keys count as
/// values, each table once per place it stands.
public struct BridgeCensus: Equatable, CustomStringConvertible {
    public var tables = 0, entries = 0, integers = 0, floats = 0, nans = 0, negativeZeros = 0
    public var strings = 0, bytes = 0, invalid = 0, booleans = 0, functions = 0, threads = 0
    /// The depth of the deepest table (the value itself is at 0); -1 without tables.
    public var depth = -1

    public init(_ value: LuaValue) {
        count(value, depth: 0)
    }

    /// The counts Lua reported (`describe()`), or nil when the report is malformed.
    public init?(lua report: LuaValue) {
        func field(_ name: String) -> Int? { report[.string(name)].intValue.map { Int($0) } }
        guard let tables = field("tables"), let entries = field("entries"), let integers = field("integers"),
              let floats = field("floats"), let nans = field("nans"), let negativeZeros = field("negative_zeros"),
              let strings = field("strings"), let bytes = field("bytes"), let invalid = field("invalid"),
              let booleans = field("booleans"), let functions = field("functions"), let threads = field("threads"),
              let depth = field("depth")
        else { return nil }
        (self.tables, self.entries, self.integers, self.floats, self.nans) = (tables, entries, integers, floats, nans)
        (self.negativeZeros, self.strings, self.bytes, self.invalid) = (negativeZeros, strings, bytes, invalid)
        (self.booleans, self.functions, self.threads, self.depth) = (booleans, functions, threads, depth)
    }

    private mutating func count(_ value: LuaValue, depth: Int) {
        switch value {
        case .table(let table):
            tables += 1
            self.depth = max(self.depth, depth)
            for (key, item) in table {
                entries += 1
                count(key, depth: depth + 1)
                count(item, depth: depth + 1)
            }
        case .integer: integers += 1
        case .number(let number):
            floats += 1
            if number.isNaN { nans += 1 }
            if number == 0 && number.sign == .minus { negativeZeros += 1 }
        case .string(let text):
            strings += 1
            bytes += text.utf8.count
        case .bytes(let raw):
            strings += 1
            bytes += raw.count
            invalid += 1
        case .boolean: booleans += 1
        case .function: functions += 1
        case .thread: threads += 1
        case .nil, .userdata: break
        }
    }

    public var description: String {
        "tables \(tables), entries \(entries), integers \(integers), floats \(floats) (NaN \(nans), -0.0 \(negativeZeros)), "
            + "strings \(strings) (\(bytes) bytes, \(invalid) invalid), booleans \(booleans), functions \(functions), "
            + "threads \(threads), depth \(depth)"
    }
}
