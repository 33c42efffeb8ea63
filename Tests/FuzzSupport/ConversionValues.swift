import Lua
import TestSupport

/// A value made in Swift for conversion to Lua, and why pushing it may fail.
public struct BridgeInput {
    public var value: LuaValue
    /// What may make the push fail; empty when the value must come back from Lua as it went.
    public var faults: Set<BridgeFault>
}

/// A cause conversion must refuse cleanly, with a `LuaError` of this kind whose message names it.
public enum BridgeFault: String, Hashable, Sendable, CaseIterable {
    /// Tables nested deeper than the state's `maximumTableDepth`.
    case tooDeep = "nesting deeper than"
    /// A cycle (only Lua can make one).
    case cyclic = "cyclic"
    /// A nil table key, which Lua refuses.
    case nilKey = "index is nil"
    /// A NaN table key, which Lua refuses.
    case nanKey = "index is NaN"
    /// More bytes than the state may hold.
    case pastMemoryLimit = "not enough memory"

    /// The kind of error the fault must raise.
    public var kind: LuaError.Kind {
        switch self {
        case .tooDeep, .cyclic: .conversion
        case .nilKey, .nanKey: .runtime
        case .pastMemoryLimit: .memory
        }
    }
}

/// Random values made in Swift: nested tables with mixed keys (sequences with holes, strings,
/// floats, tables), invalid UTF-8, NUL and control bytes, strings of several MiB and past the
/// state's memory limit, NaN, ±infinity, -0.0, Int64.min/max and integral floats, chains of
/// tables around the depth limit, and tables with nil or NaN keys.
public struct ConversionValues {
    /// The state's `maximumTableDepth`.
    public let maximumDepth: Int
    /// Bytes the state may still take: a string longer than this cannot be pushed.
    public let memoryRoom: Int

    public init(maximumDepth: Int, memoryRoom: Int) {
        self.maximumDepth = maximumDepth
        self.memoryRoom = memoryRoom
    }

    public func make(_ random: inout SeededRandom) -> BridgeInput {
        switch random.int(in: 0...99) {
        case 0...2:
            let levels = maximumDepth + random.int(in: -2...2)
            return BridgeInput(value: chain(levels, &random), faults: levels > maximumDepth ? [.tooDeep] : [])
        case 3:
            let text = String(repeating: "\u{0}é\u{1B}", count: random.int(in: 1...(2 << 20)))
            return BridgeInput(value: .table(["big": .string(text), 1: .bytes([0xFF, 0x00])]), faults: [])
        case 4 where random.oneIn(4):
            let bytes = [UInt8](repeating: 0x6D, count: memoryRoom + random.int(in: 1...(1 << 20)))
            return BridgeInput(value: .array([.bytes(bytes + [0xFF])]), faults: [.pastMemoryLimit])
        case 5...6:
            var table = self.table(depth: 2, &random)
            let fault: BridgeFault = random.oneIn(2) ? .nilKey : .nanKey
            table[fault == .nilKey ? .nil : .number(random.oneIn(2) ? .nan : -.nan)] = .boolean(true)
            return BridgeInput(value: .table(table), faults: [fault])
        case 7...20:
            return BridgeInput(value: scalar(&random), faults: [])
        default:
            return BridgeInput(value: .table(table(depth: random.int(in: 1...6), &random)), faults: [])
        }
    }

    /// `levels` tables, each inside the next, as a value or (about eight times) as a key. Not more
    /// often: a table key is hashed whole, so a chain of keys costs the square of its length.
    private func chain(_ levels: Int, _ random: inout SeededRandom) -> LuaValue {
        var inner: LuaValue = .array(["bottom"])
        for _ in 1..<max(1, levels) {
            inner = random.oneIn(max(4, levels / 8)) ? .table([inner: true]) : .array([inner])
        }
        return inner
    }

    /// A table whose keys stay distinct once Lua has normalised them (an integral float key
    /// becomes an integer, bytes that are valid UTF-8 a string), so the copy back is predictable.
    private func table(depth: Int, _ random: inout SeededRandom) -> [LuaValue: LuaValue] {
        var table: [LuaValue: LuaValue] = [:]
        var normalisedKeys: Set<LuaValue> = []
        guard depth > 0 else { return table }
        for index in 1...random.int(in: 1...8) {
            let key = self.key(index, depth: depth, &random)
            guard normalisedKeys.insert(BridgeSameness.normalisedKey(key)).inserted else { continue }
            switch random.int(in: 0...9) {
            case 0 where depth > 1: table[key] = .table(self.table(depth: depth - 1, &random))
            case 1: table.updateValue(LuaValue.nil, forKey: key)   // Lua drops it: a hole
            default: table[key] = scalar(&random)
            }
        }
        return table
    }

    private func key(_ index: Int, depth: Int, _ random: inout SeededRandom) -> LuaValue {
        switch random.int(in: 0...11) {
        case 0...3: .integer(Int64(index))                        // a sequence, with holes where skipped
        case 4...5: .string(keyText(&random))
        case 6: .number(random.element([.infinity, -.infinity, 0x1p53, 0x1p63, -0x1p63, 1e308, .leastNonzeroMagnitude, 0.1]))
        case 7: .number(Double(index) + 0.5)                      // a float that is no integer
        case 8: .number(Double(index))                            // Lua makes this the integer index
        case 9: .number(-0.0)                                     // … and this the integer 0
        case 10: .boolean(random.oneIn(2))
        default: .table(depth > 1 ? ["uid": .integer(Int64(random.int(in: 0...1_000_000)))] : [:])
        }
    }

    /// Keys from pieces no two of which Swift takes for the same text (no combining marks).
    private func keyText(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "b", "id", "\u{0}", "\u{1}", "\n", "\u{7F}", "é", "x y", "✓"]
        return (0..<random.int(in: 0...4)).map { _ in random.element(pieces) }.joined()
    }

    private func scalar(_ random: inout SeededRandom) -> LuaValue {
        switch random.int(in: 0...9) {
        case 0: return .boolean(random.oneIn(2))
        case 1: return .integer(random.element([0, 1, -1, .min, .max, 1 << 53, 1 << 53 + 1]))
        case 2: return .integer(Int64(bitPattern: random.next()))
        case 3: return .number(random.element([0.0, -0.0, .nan, -.nan, .infinity, -.infinity, 0x1p53, 0x1p63, -0x1p63, 1.5]))
        case 4: return .number(Double(bitPattern: random.next()))   // any bits: NaN payloads, subnormals
        case 5: return .nil
        case 6:
            let bytes = (0..<random.int(in: 0...16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return LuaValue(bytes: bytes)
        case 7: return .bytes((0..<random.int(in: 0...6)).map { _ in UInt8(ascii: "a") })   // valid: Lua gives .string
        default:
            let scalars = (0..<random.int(in: 0...10)).compactMap { _ in
                Unicode.Scalar(random.element([0, 1, 0x1B, 0x7F, 0x80, 0xE9, 0x301, 0xFFFD, 0x1D11E, random.int(in: 0...0x10FFFF)]))
            }
            return .string(String(String.UnicodeScalarView(scalars)))
        }
    }
}
