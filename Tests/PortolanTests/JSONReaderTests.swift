#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Portolan
import Testing
import TestSupport

/// `JSONReader` against the reader it replaced, FoundationEssentials' `JSONDecoder` (kept here as
/// the oracle), on generated documents written many ways and on their mutations; and its refusals,
/// each with its reason.
@Suite struct JSONReaderTests {
    private static let nesting = SnapshotLimits.maximumNesting

    @Test func everyGeneratedValueReadsBackFromItsCanonicalTextAndFromLooserSpellings() throws {
        var random = SeededRandom(seed: 0x4A53_4F4E)
        for _ in 0..<400 {
            let value = Self.value(depth: 0, using: &random)
            #expect(try JSONReader.value(of: CanonicalJSON.bytes(of: value), maximumNesting: Self.nesting) == value)
            let loose = Self.looseText(of: value, using: &random)
            #expect(try JSONReader.value(of: Array(loose.utf8), maximumNesting: Self.nesting) == value, "\(loose)")
            #expect(Self.oracle(Array(loose.utf8)) == value, "the oracle disagrees on \(loose)")
        }
    }

    /// Every mutation of a document either reads as the oracle reads it or is refused by both, but
    /// where this reader is stricter on purpose (a key given twice).
    @Test func mutatedDocumentsReadAsTheOracleReadsThem() {
        var random = SeededRandom(seed: 0x6D75_7461)
        let alphabet = Array(#"{}[]:,"\ u0123456789abcdefABCDEF.eE+-truefalsnl"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xFF]
        var agreed = 0, bothRefused = 0
        for _ in 0..<3_000 {
            var bytes = CanonicalJSON.bytes(of: Self.value(depth: 0, using: &random))
            for _ in 0...random.below(3) {
                let place = random.below(bytes.count + 1)
                switch random.below(3) {
                case 0: bytes.insert(random.pick(alphabet) ?? 0, at: place)
                case 1 where place < bytes.count: bytes.remove(at: place)
                default: if place < bytes.count { bytes[place] = random.pick(alphabet) ?? 0 }
                }
            }
            let ours = try? JSONReader.value(of: bytes, maximumNesting: Self.nesting)
            let theirs = Self.oracle(bytes)
            if ours == nil, theirs != nil, Self.refusedForADuplicateKey(bytes) { continue }
            #expect(ours == theirs, "\(String(decoding: bytes, as: UTF8.self))")
            if ours == nil { bothRefused += 1 } else { agreed += 1 }
        }
        #expect(agreed > 300 && bothRefused > 300, "\(agreed) read alike, \(bothRefused) refused by both")
    }

    @Test(arguments: [
        ("", "byte 0: a value expected, the text ended"),
        ("[1,]", "byte 3: a value expected"),
        ("{\"a\":1,}", "byte 7: a key expected"),
        ("01", "byte 1: text after the value"),
        ("1.", "byte 0: a digit expected after '.'"),
        (".5", "byte 0: a value expected"),
        ("+1", "byte 0: a value expected"),
        ("1e", "byte 0: a digit expected in the exponent"),
        ("1e400", "byte 0: a number out of range"),
        ("-", "byte 0: a number expected"),
        ("tru", "byte 0: a value expected"),
        ("[1 2]", "byte 3: ',' or ']' expected"),
        ("{\"a\" 1}", "byte 5: ':' expected after a key"),
        ("\"a\u{1}b\"", "byte 2: a control character in a string (it must be escaped)"),
        ("\"\\x\"", "byte 1: an unknown escape in a string"),
        ("\"\\u12\"", "byte 1: a '\\u' escape without four hex digits"),
        ("\"\\ud800\"", "byte 1: half a surrogate pair in a string"),
        ("\"\\udc00\\ud800\"", "byte 1: half a surrogate pair in a string"),
        ("\"\\ud800\\u0041\"", "byte 1: half a surrogate pair in a string"),
        ("\"abc", "byte 0: a string not closed"),
        ("{\"a\":1,\"a\":2}", "byte 7: the key 'a' appears twice"),
        ("null x", "byte 5: text after the value"),
    ])
    func aRefusalSaysWhyAndWhere(text: String, reason: String) {
        #expect(throws: JSONReader.Refusal.self) { try JSONReader.value(of: Array(text.utf8), maximumNesting: Self.nesting) }
        do {
            _ = try JSONReader.value(of: Array(text.utf8), maximumNesting: Self.nesting)
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test func bytesThatAreNotUTF8AreRefusedInAStringWithOrWithoutEscapes() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(throws: JSONReader.Refusal.malformed(at: 0, "a string that is not UTF-8")) {
                try JSONReader.value(of: bytes, maximumNesting: Self.nesting)
            }
        }
    }

    @Test func numbersReadExactlyAndWholeOnesAsIntegers() throws {
        let read = { (text: String) throws in try JSONReader.value(of: Array(text.utf8), maximumNesting: Self.nesting) }
        #expect(try read("9223372036854775807") == .integer(.max))
        #expect(try read("-9223372036854775808") == .integer(.min))
        #expect(try read("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try read("1.0") == .integer(1))
        #expect(try read("1e2") == .integer(100))
        #expect(try read("-0") == .integer(0))
        #expect(try read("0.1") == .number(0.1))
        #expect(try read("1e-400") == .integer(0))
        #expect(try read("\"\\ud83d\\ude00\\/\\t\"") == .string("😀/\t"))
    }

    @Test func nestingIsRefusedPastTheLimitAndReadUpToIt() throws {
        let deep = { (depth: Int) in Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }
        #expect(throws: JSONReader.Refusal.tooDeep(at: Self.nesting)) { try JSONReader.value(of: deep(Self.nesting + 1), maximumNesting: Self.nesting) }
        // Deep enough to overflow a recursive reader's stack, refused at the limit instead.
        #expect(throws: JSONReader.Refusal.tooDeep(at: Self.nesting)) { try JSONReader.value(of: deep(1_000_000), maximumNesting: Self.nesting) }
        _ = try JSONReader.value(of: deep(Self.nesting), maximumNesting: Self.nesting)
    }

    // MARK: - Generated values

    private static func value(depth: Int, using random: inout SeededRandom) -> JSONValue {
        let kinds = depth < 4 ? 7 : 5
        switch random.below(kinds) {
        case 0: return .null
        case 1: return .boolean(random.chance(0.5))
        case 2: return .integer(random.chance(0.2) ? Int64.random(in: .min ... .max, using: &random) : Int64(random.below(2_000)) - 1_000)
        case 3: return .number(normalizing: Double(random.below(1_000_000) - 500_000) / 64 + 0.5 * (random.chance(0.5) ? 1e-9 : 1))
        case 4: return .string(string(using: &random))
        case 5: return .array((0..<random.below(4)).map { _ in value(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.below(4) { members[string(using: &random)] = value(depth: depth + 1, using: &random) }
            return .object(members)
        }
    }

    private static func string(using random: inout SeededRandom) -> String {
        let pieces = ["a", "id", "é", "😀", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}", " ", "中", "\u{FEFF}"]
        return (0..<random.below(5)).map { _ in random.pick(pieces) ?? "" }.joined()
    }

    /// The value spelled as another writer might: whitespace anywhere it may go, every character
    /// possibly a `\u` escape (astral ones as surrogate pairs), numbers with exponents.
    private static func looseText(of value: JSONValue, using random: inout SeededRandom) -> String {
        let space = { (random: inout SeededRandom) in random.pick(["", " ", "\n\t", "\r\n  "]) ?? "" }
        switch value {
        case .integer(let integer) where random.chance(0.3) && abs(integer) < 1_000: return "\(integer)0e-1"
        case .array(let elements):
            return "[" + space(&random) + elements.map { looseText(of: $0, using: &random) + space(&random) }.joined(separator: "," + space(&random)) + "]"
        case .object(let members):
            let written = members.sorted { $0.key < $1.key }.map { key, member in
                looseString(key, using: &random) + space(&random) + ":" + space(&random) + looseText(of: member, using: &random)
            }
            return "{" + space(&random) + written.joined(separator: space(&random) + "," + space(&random)) + space(&random) + "}"
        case .string(let string): return looseString(string, using: &random)
        default: return CanonicalJSON.text(of: value)
        }
    }

    private static func looseString(_ string: String, using random: inout SeededRandom) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            let plain = CanonicalJSON.text(of: .string(String(scalar))).dropFirst().dropLast()
            guard random.chance(0.4) else {
                text += plain
                continue
            }
            for unit in String(scalar).utf16 { text += "\\u" + String(unit, radix: 16, uppercase: random.chance(0.5)).leftPadded(to: 4) }
        }
        return text + "\""
    }

    // MARK: - The oracle

    private static func oracle(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(DecodedJSON.self, from: Data(bytes)).value
    }

    /// Whether the reader refuses the bytes for a key given twice, which the oracle reads as one.
    private static func refusedForADuplicateKey(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try JSONReader.value(of: bytes, maximumNesting: nesting)
            return false
        } catch {
            if case .duplicateKey = error { return true }
            return false
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// The reader `JSONReader` replaced: a JSON value through `Decodable`, trying each kind in turn.
private struct DecodedJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                value = .null
                return
            }
            if let string = try? single.decode(String.self) {
                value = .string(string)
                return
            }
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value }
            value = .object(members)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !list.isAtEnd { elements.append(try list.decode(DecodedJSON.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if let integer = try? single.decode(Int64.self) {
            value = .integer(integer)
        } else if let flag = try? single.decode(Bool.self) {
            value = .boolean(flag)
        } else {
            let number = try single.decode(Double.self)
            guard number.isFinite else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "out of range")) }
            value = .number(normalizing: number)
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
