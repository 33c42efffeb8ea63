#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Portolan

/// Reads a snapshot's bytes into a document, or says why they are not one. Whatever the bytes, it
/// returns: the size is checked first, then the nesting (a scan of brackets, so that no decoder
/// recurses deeper than `SnapshotLimits.maximumNesting`), then FoundationEssentials' JSON decoder
/// reads the value and `SnapshotDocument` its shape.
public enum SnapshotReader {
    public static func document(from bytes: [UInt8]) -> Result<SnapshotDocument, SnapshotError> {
        guard bytes.count <= SnapshotLimits.maximumBytes else {
            return .failure(SnapshotError("too large: \(bytes.count) bytes, more than \(SnapshotLimits.maximumBytes)"))
        }
        guard nesting(of: bytes) <= SnapshotLimits.maximumNesting else {
            return .failure(SnapshotError("not a snapshot: its values nest deeper than \(SnapshotLimits.maximumNesting)"))
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(DecodedJSON.self, from: Data(bytes)).value
        } catch {
            return .failure(SnapshotError("not a snapshot: the bytes are not JSON"))
        }
        return Result { () throws(SnapshotError) in try SnapshotDocument(json: value) }
    }

    /// The JSON value of some bytes, for tools that read values of their own (nil when not JSON
    /// or nested too deep).
    public static func json(from bytes: [UInt8]) -> JSONValue? {
        guard bytes.count <= SnapshotLimits.maximumBytes, nesting(of: bytes) <= SnapshotLimits.maximumNesting else { return nil }
        return try? JSONDecoder().decode(DecodedJSON.self, from: Data(bytes)).value
    }

    /// The deepest nesting of `[` and `{` outside strings. It does not parse: it only bounds what
    /// the decoder will be asked to recurse through.
    static func nesting(of bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

/// One JSON value as the decoder hands it over, made a `JSONValue`: numbers that are whole and
/// within Int64 are integers (`JSONValue.number(normalizing:)`), so `1.0` and `1` read alike.
private struct DecodedJSON: Decodable {
    let value: JSONValue

    // The decoder has no way to ask a value's type, only to try one and catch the error; the
    // tries go from the most frequent kind in a snapshot (strings: ids) to the least, so that a
    // document costs about one caught error per value.
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
            for key in object.allKeys {
                guard members[key.stringValue] == nil else { throw SnapshotError("not a snapshot: the key '\(key.stringValue)' appears twice") }
                members[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value
            }
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
            guard number.isFinite else { throw SnapshotError("not a snapshot: a number out of range") }
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
