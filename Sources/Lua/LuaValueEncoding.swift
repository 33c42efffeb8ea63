import CLua
import CLuaShim

/// Values encoded for `cluashim_ppushencoded`, which pushes them all under one `lua_pcall`.
///
/// Pushing a string or a table allocates, and an allocation may raise (a memory limit), so each
/// needs a protected call; a handler's arguments would take one per string and per table. Encoded
/// first, they take one in all. The tags are those of EncodedValues.c.
struct LuaValueEncoding {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    private enum Tag: UInt8 {
        case `nil` = 0, `false`, `true`, integer, number, string, table, reference
    }

    init(_ values: [LuaValue], state: LuaState) throws(LuaError) {
        bytes.reserveCapacity(64)
        for value in values {
            try append(value, state: state, depth: 0)
            count += 1
        }
    }

    init(_ arguments: [LuaArgument], state: LuaState) throws(LuaError) {
        bytes.reserveCapacity(64)
        for argument in arguments {
            switch argument {
            case .value(let value): try append(value, state: state, depth: 0)
            case .reference(let reference): try appendReference(reference, state: state)
            }
            count += 1
        }
    }

    private mutating func append(_ value: LuaValue, state: LuaState, depth: Int) throws(LuaError) {
        switch value {
        case .nil: bytes.append(Tag.nil.rawValue)
        case .boolean(let flag): bytes.append((flag ? Tag.true : Tag.false).rawValue)
        case .integer(let integer):
            bytes.append(Tag.integer.rawValue)
            appendRaw(integer)
        case .number(let number):
            bytes.append(Tag.number.rawValue)
            appendRaw(number)
        case .string(var text):
            text.withUTF8 { appendString($0) }
        case .bytes(let raw):
            raw.withUnsafeBufferPointer { appendString($0) }
        case .table(let table):
            try appendTable(table, state: state, depth: depth)
        case .function(let reference), .userdata(let reference), .thread(let reference):
            try appendReference(reference, state: state)
        }
    }

    private mutating func appendReference(_ reference: LuaReference, state: LuaState) throws(LuaError) {
        try state.checkOwns(reference)
        bytes.append(Tag.reference.rawValue)
        appendRaw(Int64(reference.reference))
    }

    private mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(Tag.string.rawValue)
        appendRaw(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    private mutating func appendTable(_ table: [LuaValue: LuaValue], state: LuaState, depth: Int) throws(LuaError) {
        let limit = state.maximumPushedTableDepth
        guard depth < limit else {
            throw LuaError(.conversion, "table nesting deeper than \(limit)")
        }
        let sequenceCount = table.keys.count { key in
            guard case .integer(let index) = key else { return false }
            return index >= 1 && index <= table.count
        }
        bytes.append(Tag.table.rawValue)
        appendRaw(UInt64(sequenceCount))
        appendRaw(UInt64(table.count - sequenceCount))
        appendRaw(UInt64(table.count))
        for (key, value) in table {
            try append(key, state: state, depth: depth + 1)
            try append(value, state: state, depth: depth + 1)
        }
    }

    private mutating func appendRaw<T>(_ value: T) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }
}

extension LuaValue {
    /// Whether pushing it allocates nothing in Lua (so cannot raise, and needs no protected call).
    var pushesWithoutAllocating: Bool {
        switch self {
        case .nil, .boolean, .integer, .number, .function, .userdata, .thread: true
        case .string, .bytes, .table: false
        }
    }
}
