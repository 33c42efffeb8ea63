/// Reads JSON text (RFC 8259, UTF-8) into a `JSONValue`, in one pass over its bytes: what
/// `CanonicalJSON` writes, and any other JSON a person or a tool wrote.
///
/// It exists because `Decodable` cannot ask a value's kind, only try one and catch the error:
/// through FoundationEssentials' `JSONDecoder`, reading a 22 KB snapshot cost fifteen routes
/// (Benchmarks/README.md, "Snapshots").
///
/// It is strict where a lenient reader would let two readers disagree about one document:
/// - a key given twice in one object is refused, not "the last one wins";
/// - a string must be valid UTF-8 and escape its control characters, and a `\u` escape of half a
///   surrogate pair is refused;
/// - a number must fit a Double (`1e400` is refused); a whole number within Int64 reads as
///   `.integer`, whatever its spelling (`1`, `1.0` and `1e0` read alike);
/// - nothing but whitespace may follow the value.
///
/// Nesting deeper than `maximumNesting` is refused as it is met, so the reader's recursion is
/// bounded whatever the bytes.
public struct JSONReader {
    /// Why some bytes are not a JSON value this reader accepts, and where (a byte's offset).
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case malformed(at: Int, String)
        case tooDeep(at: Int)
        case duplicateKey(at: Int, String)
        case numberOutOfRange(at: Int)

        public var description: String {
            switch self {
            case .malformed(let offset, let what): "byte \(offset): \(what)"
            case .tooDeep(let offset): "byte \(offset): nested too deep"
            case .duplicateKey(let offset, let key): "byte \(offset): the key '\(key)' appears twice"
            case .numberOutOfRange(let offset): "byte \(offset): a number out of range"
            }
        }
    }

    /// The value the bytes hold.
    public static func value(of bytes: [UInt8], maximumNesting: Int) throws(Refusal) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maximumNesting: maximumNesting)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw .malformed(at: reader.offset, "text after the value") }
        return value
    }

    private let bytes: [UInt8]
    private let maximumNesting: Int
    private var offset = 0

    private init(bytes: [UInt8], maximumNesting: Int) {
        self.bytes = bytes
        self.maximumNesting = maximumNesting
    }

    private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func readValue(depth: Int) throws(Refusal) -> JSONValue {
        guard let byte = next else { throw .malformed(at: offset, "a value expected, the text ended") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "t"): return try readWord("true", as: .boolean(true))
        case UInt8(ascii: "f"): return try readWord("false", as: .boolean(false))
        case UInt8(ascii: "n"): return try readWord("null", as: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw .malformed(at: offset, "a value expected")
        }
    }

    private mutating func readWord(_ word: String, as value: JSONValue) throws(Refusal) -> JSONValue {
        let start = offset
        for expected in word.utf8 {
            guard next == expected else { throw .malformed(at: start, "a value expected") }
            offset += 1
        }
        return value
    }

    private mutating func readObject(depth: Int) throws(Refusal) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try readList(depth: depth, closedBy: UInt8(ascii: "}")) { (reader) throws(Refusal) in
            let keyOffset = reader.offset
            guard reader.next == UInt8(ascii: "\"") else { throw .malformed(at: reader.offset, "a key expected") }
            let key = try reader.readString()
            reader.skipWhitespace()
            guard reader.next == UInt8(ascii: ":") else { throw .malformed(at: reader.offset, "':' expected after a key") }
            reader.offset += 1
            reader.skipWhitespace()
            let value = try reader.readValue(depth: depth)
            guard members.updateValue(value, forKey: key) == nil else { throw .duplicateKey(at: keyOffset, key) }
        }
        return .object(members)
    }

    private mutating func readArray(depth: Int) throws(Refusal) -> JSONValue {
        var elements: [JSONValue] = []
        try readList(depth: depth, closedBy: UInt8(ascii: "]")) { (reader) throws(Refusal) in
            elements.append(try reader.readValue(depth: depth))
        }
        return .array(elements)
    }

    /// The one grammar of both containers: the opening bracket at `offset`, then elements separated
    /// by commas (`readElement` reads one, whitespace before it already skipped), then `close`.
    private mutating func readList(
        depth: Int, closedBy close: UInt8, _ readElement: (inout JSONReader) throws(Refusal) -> Void
    ) throws(Refusal) {
        guard depth <= maximumNesting else { throw .tooDeep(at: offset) }
        offset += 1
        skipWhitespace()
        if next == close {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            try readElement(&self)
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): offset += 1
            case close?:
                offset += 1
                return
            default: throw .malformed(at: offset, "',' or '\(Character(Unicode.Scalar(close)))' expected")
            }
        }
    }

    /// A number as RFC 8259 spells it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(Refusal) -> JSONValue {
        let start = offset
        if next == UInt8(ascii: "-") { offset += 1 }
        if next == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard skipDigits() else { throw .malformed(at: start, "a number expected") }
        }
        var whole = true
        if next == UInt8(ascii: ".") {
            offset += 1
            whole = false
            guard skipDigits() else { throw .malformed(at: start, "a digit expected after '.'") }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            offset += 1
            whole = false
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() else { throw .malformed(at: start, "a digit expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if whole, let integer = Int64(text) { return .integer(integer) }
        // Swift's conversion rounds correctly, so a number reads as the Double nearest its text.
        guard let number = Double(text), number.isFinite else { throw .numberOutOfRange(at: start) }
        return .number(normalizing: number)
    }

    /// Skips a run of decimal digits; false when there was none.
    private mutating func skipDigits() -> Bool {
        let start = offset
        while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
        return offset > start
    }

    private mutating func readString() throws(Refusal) -> String {
        let start = offset
        offset += 1
        let contentStart = offset
        // Most strings in a snapshot (ids, node names) have no escape: they are taken as they are.
        while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { offset += 1 }
        if next == UInt8(ascii: "\"") {
            let string = String(validating: bytes[contentStart..<offset], as: UTF8.self)
            offset += 1
            guard let string else { throw .malformed(at: start, "a string that is not UTF-8") }
            return string
        }
        var content = Array(bytes[contentStart..<offset])
        while true {
            guard let byte = next else { throw .malformed(at: start, "a string not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard let string = String(validating: content, as: UTF8.self) else {
                    throw .malformed(at: start, "a string that is not UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                try readEscape(into: &content)
            case 0x00..<0x20:
                throw .malformed(at: offset, "a control character in a string (it must be escaped)")
            default:
                content.append(byte)
                offset += 1
            }
        }
    }

    private mutating func readEscape(into content: inout [UInt8]) throws(Refusal) {
        let start = offset
        offset += 1
        guard let letter = next else { throw .malformed(at: start, "a string not closed") }
        offset += 1
        let replacement: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): replacement = letter
        case UInt8(ascii: "b"): replacement = 0x08
        case UInt8(ascii: "f"): replacement = 0x0C
        case UInt8(ascii: "n"): replacement = 0x0A
        case UInt8(ascii: "r"): replacement = 0x0D
        case UInt8(ascii: "t"): replacement = 0x09
        case UInt8(ascii: "u"):
            content.append(contentsOf: String(Character(try readEscapedScalar(start: start))).utf8)
            return
        default: throw .malformed(at: start, "an unknown escape in a string")
        }
        content.append(replacement)
    }

    /// The scalar of a `\uXXXX` escape whose `\u` is already read, with its low half when it is
    /// the high half of a surrogate pair.
    private mutating func readEscapedScalar(start: Int) throws(Refusal) -> Unicode.Scalar {
        let unit = try readHexUnit(start: start)
        if let scalar = Unicode.Scalar(unit) { return scalar }
        guard unit < 0xDC00, next == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
            throw .malformed(at: start, "half a surrogate pair in a string")
        }
        offset += 2
        let low = try readHexUnit(start: start)
        guard (0xDC00...0xDFFF).contains(low),
              let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
        else { throw .malformed(at: start, "half a surrogate pair in a string") }
        return scalar
    }

    private mutating func readHexUnit(start: Int) throws(Refusal) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = next, let digit = Self.hexValue(byte) else { throw .malformed(at: start, "a '\\u' escape without four hex digits") }
            unit = unit << 4 | UInt16(digit)
            offset += 1
        }
        return unit
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
