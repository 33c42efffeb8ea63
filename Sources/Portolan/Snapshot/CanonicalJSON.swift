/// The one way a snapshot is written: canonical JSON, so that equal documents are equal bytes
/// (`snapshot → restore → snapshot` is byte-identical, and two snapshots diff by their text).
///
/// The rules (docs/snapshots.md, "Canonical form"):
/// - no whitespace outside strings;
/// - object keys sorted by their UTF-8 bytes, each once;
/// - strings escape only `"`, `\` and the control characters U+0000–U+001F: `\b \f \n \r \t` in
///   their short forms, the others as `\u00XX` with lowercase hex; everything else is written as
///   its UTF-8 bytes;
/// - a whole number within Int64 is written as an integer (`42`, `-7`, never `42.0` or `4.2e1`);
///   any other number in Swift's shortest round-tripping form (`0.5`, `1e-07`); never NaN or
///   an infinity (`JSONValue` holds none);
/// - `null`, `true`, `false` as such.
public enum CanonicalJSON {
    /// The value's canonical bytes.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, to: &output)
        return output
    }

    /// The value's canonical text.
    public static func text(of value: JSONValue) -> String {
        String(decoding: bytes(of: value), as: UTF8.self)
    }

    // Recursion is bounded by the document: a snapshot's values nest at most
    // `SnapshotLimits.maximumNesting` deep (the reader refuses deeper ones, and a captured state is
    // refused past it too).
    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .boolean(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer): output.append(contentsOf: String(integer).utf8)
        case .number(let number): writeNumber(number, to: &output)
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(members[key] ?? .null, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeNumber(_ number: Double, to output: inout [UInt8]) {
        if let integer = Int64(exactly: number) {
            output.append(contentsOf: String(integer).utf8)
        } else if number.isFinite {
            output.append(contentsOf: number.description.utf8)
        } else {
            // Unreachable through the document's builders; written so the text stays JSON.
            output.append(contentsOf: "null".utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
