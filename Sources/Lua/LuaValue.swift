/// A Lua value, copied into Swift.
///
/// Tables are copied by value into dictionaries (use ``LuaValue/arrayValue`` for sequences); functions,
/// userdata and threads cannot be copied, so they are held by a ``LuaReference``.
///
/// Equality is structural, not Lua's `==`: `.integer(1) != .number(1.0)`. Tables read from Lua never have
/// integral float keys (Lua normalises them to integers), so this only matters for values built in Swift.
public enum LuaValue: Hashable {
    case `nil`
    case boolean(Bool)
    /// A Lua integer subtype (`lua_isinteger`).
    case integer(Int64)
    /// A Lua float.
    case number(Double)
    /// A Lua string that is valid UTF-8.
    case string(String)
    /// A Lua string that is not valid UTF-8, byte for byte. Pushed to Lua as the same bytes.
    case bytes([UInt8])
    /// A table copied key by key, without metamethods.
    case table([LuaValue: LuaValue])
    case function(LuaReference)
    /// Full or light userdata.
    case userdata(LuaReference)
    /// A coroutine.
    case thread(LuaReference)

    /// A sequence as Lua sees it: keys 1...n.
    public static func array(_ elements: [LuaValue]) -> LuaValue {
        var table: [LuaValue: LuaValue] = [:]
        for (offset, element) in elements.enumerated() where element != .nil {
            table[.integer(Int64(offset + 1))] = element
        }
        return .table(table)
    }

    /// The name Lua's `type()` gives this value.
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .boolean: "boolean"
        case .integer, .number: "number"
        case .string, .bytes: "string"
        case .table: "table"
        case .function: "function"
        case .userdata: "userdata"
        case .thread: "thread"
        }
    }

    /// Lua truthiness: everything but nil and false.
    public var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): false
        default: true
        }
    }

    public var isNil: Bool { self == .nil }

    /// The boolean, when the value is one (not Lua truthiness: see ``isTruthy``).
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The integer, or a float with an exact integer value (as Lua's `math.tointeger`).
    public var intValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The number as a `Double`, an integer or a float (an integer beyond 2^53 becomes the nearest).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The string; for `.bytes`, decoded with replacement characters.
    public var stringValue: String? {
        switch self {
        case .string(let value): return value
        case .bytes(let value): return String(decoding: value, as: UTF8.self)
        default: return nil
        }
    }

    /// The exact bytes of a string value.
    public var bytesValue: [UInt8]? {
        switch self {
        case .string(let value): return Array(value.utf8)
        case .bytes(let value): return value
        default: return nil
        }
    }

    /// The table's keys and values, as copied.
    public var tableValue: [LuaValue: LuaValue]? {
        if case .table(let value) = self { return value }
        return nil
    }

    /// The elements of a table whose keys are exactly 1...n (an empty table is an empty array).
    public var arrayValue: [LuaValue]? {
        guard case .table(let table) = self else { return nil }
        var elements: [LuaValue] = []
        elements.reserveCapacity(table.count)
        // n keys that include every one of 1...n are exactly 1...n.
        for index in 0..<table.count {
            guard let element = table[.integer(Int64(index + 1))] else { return nil }
            elements.append(element)
        }
        return elements
    }

    /// The reference held by a function, userdata or thread.
    public var reference: LuaReference? {
        switch self {
        case .function(let reference), .userdata(let reference), .thread(let reference): reference
        default: nil
        }
    }

    /// `value["key"]` on a table value; `.nil` for missing keys and non-tables.
    public subscript(key: LuaValue) -> LuaValue {
        tableValue?[key] ?? .nil
    }
}

extension LuaValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .nil }
}

extension LuaValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension LuaValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension LuaValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension LuaValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension LuaValue: ExpressibleByStringInterpolation {}

extension LuaValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: LuaValue...) { self = .array(elements) }
}

extension LuaValue: ExpressibleByDictionaryLiteral {
    /// Later duplicates win, as in a Lua table constructor.
    public init(dictionaryLiteral elements: (LuaValue, LuaValue)...) {
        var table: [LuaValue: LuaValue] = [:]
        for (key, value) in elements { table[key] = value }
        self = .table(table)
    }
}

extension LuaValue {
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Double) { self = .number(value) }
    public init(_ value: String) { self = .string(value) }
    public init(_ value: Bool) { self = .boolean(value) }

    /// A Lua string from bytes: `.string` when they are valid UTF-8, `.bytes` otherwise.
    public init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self = .string(text)
        } else {
            self = .bytes(Array(bytes))
        }
    }
}

extension LuaValue: CustomStringConvertible {
    /// A debugging rendering, close to Lua literal syntax; tables have keys in a stable order.
    public var description: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .bytes(let value): return "<\(value.count) bytes>"
        case .table(let table):
            let entries = table.map { "[\($0.key)] = \($0.value)" }.sorted()
            return "{" + entries.joined(separator: ", ") + "}"
        case .function: return "function"
        case .userdata: return "userdata"
        case .thread: return "thread"
        }
    }
}
