import Portolan

/// The one writer of the Lua the tools generate: `explore`'s repro scenarios and the scenarios the
/// REPL's `:record` writes. Whatever a name or a value holds, the file compiles and reads each value
/// back as it was: strings byte for byte, integers as integers (`math.mininteger` too, which as a
/// literal Lua would read as a float), floats as floats (NaN and the infinities as expressions), a
/// key bare only when Lua reads it as a name (never a keyword such as `end`), and a comment on one
/// line however many line breaks its text held (a file name with a line feed cannot become code).
enum LuaSource {
    /// Lua 5.4's reserved words, which cannot stand as a bare key.
    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// `text` as a quoted string: quotes and backslashes escaped, and every control byte as `\ddd`
    /// (three digits, so that a digit after it is not read as part of it).
    static func string(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case 0..<0x20, 0x7F:
                let digits = Array(String(byte).utf8)
                bytes += [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "0"), count: 3 - digits.count) + digits
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An integer Lua reads as that integer.
    static func integer(_ value: Int64) -> String {
        // "-9223372036854775808" is a minus before a literal too large for an integer: a float.
        value == Int64.min ? "math.mininteger" : String(value)
    }

    /// A float Lua reads as that float: the shortest digits that round-trip, with a point or an
    /// exponent so that it is not read as an integer.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "(0/0)" }
        if value.isInfinite { return value > 0 ? "math.huge" : "-math.huge" }
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// Whether `key` may stand bare in a table constructor: a Lua name, not a reserved word.
    static func isName(_ key: String) -> Bool {
        // Lua's names: ASCII letters, digits and underscores, not starting with a digit.
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" }
        guard let first = key.unicodeScalars.first, isLetter(first), !keywords.contains(key) else { return false }
        return key.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }

    /// `key = ` as a table field's start: bare when it is a name, else `["key"] = `.
    static func field(_ key: String) -> String {
        (isName(key) ? key : "[\(string(key))]") + " = "
    }

    static func value(_ value: ContextValue) -> String {
        switch value {
        case .string(let text): string(text)
        case .integer(let integer): self.integer(integer)
        case .number(let number): self.number(number)
        case .boolean(let flag): flag ? "true" : "false"
        }
    }

    static func json(_ value: JSONValue) -> String {
        switch value {
        case .null: "nil"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let integer): self.integer(integer)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items): items.isEmpty ? "{}" : "{ " + items.map(json).joined(separator: ", ") + " }"
        case .object(let members):
            members.isEmpty ? "{}" : "{ " + members.keys.sorted().map { field($0) + json(members[$0] ?? .null) }.joined(separator: ", ") + " }"
        }
    }

    /// `{ id = 1, name = "x" }`, keys sorted.
    static func context(_ context: Context) -> String {
        guard !context.isEmpty else { return "{}" }
        return "{ " + context.keys.sorted().map { field($0) + value(context[$0] ?? .boolean(false)) }.joined(separator: ", ") + " }"
    }

    /// `"id"`, or `{ id = "id", context = { … } }` when it has a context.
    static func entry(_ entry: Entry) -> String {
        entry.context.isEmpty ? string(entry.id) : "{ id = \(string(entry.id)), context = \(context(entry.context)) }"
    }

    /// An entry as `portolan.active_entries()` gives it: the context always a table.
    static func activeEntry(_ entry: Entry) -> String {
        "{ id = \(string(entry.id)), context = \(context(entry.context)) }"
    }

    /// A destination as `portolan.route` takes it.
    static func destination(_ destination: Destination) -> String {
        switch destination {
        case .path(let entries): "{ " + entries.map(entry).joined(separator: ", ") + " }"
        case .anywhere(let single): entry(single)
        case .push(let pushed, let launch, let popUpTo):
            "{ push = \(entry(pushed))" + (launch.map { ", launch = \(string($0.rawValue))" } ?? "")
                + (popUpTo.map { ", pop_up_to = \(string($0.id))" + ($0.inclusive ? ", inclusive = true" : "") } ?? "") + " }"
        case .live(let id, let context, let occurrence):
            "{ id = \(string(id)), nth = \(occurrence)" + (context.isEmpty ? "" : ", context = \(self.context(context))") + " }"
        case .update(let updated, let merging, let memory):
            "{ \(merging ? "merge" : "update") = \(entry(updated))"
                + (memory == .keep ? "" : ", memory = \(string(memory.rawValue))") + " }"
        case .reset(let entries): "{ reset = { " + entries.map(entry).joined(separator: ", ") + " } }"
        case .remove(let removed): "{ remove = \(entry(removed)) }"
        case .replace(let replaced, let replacement): "{ replace = \(entry(replaced)), with = \(entry(replacement)) }"
        }
    }

    /// `-- text` on one line: every line break and control character in `text` becomes a space, so
    /// that nothing after it is read as code.
    static func comment(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: " "
            default: scalar
            }
        }
        return "-- " + String(String.UnicodeScalarView(scalars))
    }

    /// A long string holding `text` whole: `[==[…]==]` with a level the text does not close.
    static func longString(_ text: String) -> String {
        var level = 0
        while text.contains("]" + String(repeating: "=", count: level) + "]") { level += 1 }
        let equals = String(repeating: "=", count: level)
        return "[\(equals)[\n\(text)]\(equals)]"
    }
}
