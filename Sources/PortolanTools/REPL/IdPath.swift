import Portolan
import PortolanLua

/// The REPL's way of naming a destination without Lua or URL routes: ids from the root, separated
/// by slashes, as in `/root/dashboard/wishlist`. The REPL reads a line as an id path when no route
/// pattern matches it and it starts with the root's id, so apps and nodes without routes stay
/// reachable.
///
/// An id may carry a context written as entries print, so that screens that need one can be
/// reached: `/root/dashboard/wishlist/wishlist_movie{id=42}`. Values are integers, numbers,
/// `true`/`false`, or strings (quoted with `"` when they would otherwise read as one of those or
/// contain `,` `}` or `/`).
public enum IdPath {
    public struct ParseError: Error, Equatable, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// The entries of an id path; the path must start with `/` and name at least one id.
    /// A trailing slash is allowed.
    public static func entries(_ text: String) throws(ParseError) -> [Entry] {
        let trimmed = text.replTrimmed()
        guard trimmed.first == "/" else {
            throw ParseError(message: "an id path starts with '/', as in /root/dashboard")
        }
        var segments = try split(trimmed.dropFirst())
        if segments.last == "" { segments.removeLast() }
        guard !segments.isEmpty else {
            throw ParseError(message: "an id path names at least one id, as in /root/dashboard")
        }
        var entries: [Entry] = []
        for segment in segments {
            entries.append(try entry(segment))
        }
        return entries
    }

    /// The first id of an id path (`root` in `/root/a` and in `/root{x=1}/a`).
    static func firstID(of text: String) -> Substring {
        text.drop(while: { $0 == "/" }).prefix(while: { $0 != "/" && $0 != "{" && !$0.isWhitespace })
    }

    /// The destination an id path names: always a path from the root.
    public static func destination(_ text: String) throws(ParseError) -> Destination {
        .path(try entries(text))
    }

    /// Splits on `/` outside braces and quotes.
    private static func split(_ text: Substring) throws(ParseError) -> [String] {
        var segments: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        for character in text {
            switch character {
            case "\"":
                quoted.toggle()
            case "{" where !quoted:
                depth += 1
            case "}" where !quoted:
                depth -= 1
                if depth < 0 { throw ParseError(message: "unbalanced '}' in '\(Excerpt.of(text))'") }
            case "/" where !quoted && depth == 0:
                segments.append(current)
                current = ""
                continue
            default:
                break
            }
            current.append(character)
        }
        if quoted { throw ParseError(message: "unterminated quote in '\(Excerpt.of(text))'") }
        if depth != 0 { throw ParseError(message: "missing '}' in '\(Excerpt.of(text))'") }
        segments.append(current)
        return segments
    }

    private static func entry(_ segment: String) throws(ParseError) -> Entry {
        guard let brace = segment.firstIndex(of: "{") else {
            return Entry(try id(segment))
        }
        let id = try id(String(segment[..<brace]))
        let rest = segment[segment.index(after: brace)...].replTrimmed()
        guard rest.last == "}" else {
            throw ParseError(message: "the context of '\(id)' must end with '}'")
        }
        let body = rest.dropLast()
        var context: Context = [:]
        for pair in try fields(body, of: id) where !pair.replTrimmed().isEmpty {
            guard let equals = pair.firstIndex(of: "=") else {
                throw ParseError(message: "the context of '\(id)' needs key=value pairs, as in {id=42}")
            }
            let key = pair[..<equals].replTrimmed()
            guard !key.isEmpty else {
                throw ParseError(message: "the context of '\(id)' has an empty key")
            }
            context[key] = value(pair[pair.index(after: equals)...].replTrimmed())
        }
        return Entry(id, context: context)
    }

    private static func id(_ text: String) throws(ParseError) -> String {
        let id = text.replTrimmed()
        guard !id.isEmpty else {
            throw ParseError(message: "an id path has an empty id (two slashes in a row?)")
        }
        guard !id.contains(where: { $0 == "}" || $0 == "\"" || $0.isWhitespace }) else {
            throw ParseError(message: "'\(id)' is not an id")
        }
        return id
    }

    /// Splits a context body on commas outside quotes.
    private static func fields(_ body: Substring, of id: String) throws(ParseError) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        for character in body {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    private static func value(_ text: String) -> ContextValue {
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            return .string(String(text.dropFirst().dropLast()))
        }
        if text == "true" { return .boolean(true) }
        if text == "false" { return .boolean(false) }
        if let integer = Int64(text) { return .integer(integer) }
        if let number = Double(text), number.isFinite, text.contains(where: \.isNumber) { return .number(number) }
        return .string(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (Foundation-free).
    func replTrimmed() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
