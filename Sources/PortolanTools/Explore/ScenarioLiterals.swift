import Portolan
import PortolanLua
import Lua

/// The examples an app's scenario files spell out as literals (docs/explore.md): entries written
/// `{ id = "movie", context = { id = 42 } }`, step payloads `portolan.step("picked", { id = 7 })`
/// and URLs `portolan.route "/movies/42"`. Read from the text, not run: only literal strings,
/// numbers and booleans count, so what a scenario computes is not an example.
struct ScenarioLiterals: Sendable {
    var contexts: [NodeID: [Context]] = [:]
    var payloads: [String: [Context]] = [:]
    var urls: [String] = []

    init() {}

    /// The literals of every file, in the files' order; a file that cannot be read adds nothing.
    init(files: [String]) {
        for file in files {
            guard let bytes = try? LuaState.chunkBytes(contentsOfFile: file) else { continue }
            add(source: String(decoding: bytes, as: UTF8.self))
        }
    }

    mutating func add(source: String) {
        for match in source.matches(of: #/\{\s*id\s*=\s*"([A-Za-z0-9_.:-]+)"\s*,\s*context\s*=\s*\{([^{}]*)\}/#) {
            guard let context = Self.context(String(match.output.2)), !context.isEmpty else { continue }
            Self.append(context, to: &contexts[String(match.output.1), default: []])
        }
        for match in source.matches(of: #/portolan\.step\s*\(\s*"([^"\\]+)"\s*,\s*\{([^{}]*)\}/#) {
            guard let payload = Self.context(String(match.output.2)) else { continue }
            Self.append(payload, to: &payloads[String(match.output.1), default: []])
        }
        for match in source.matches(of: #/portolan\.route\s*\(?\s*"([^"\\\s]+)"/#) {
            let url = String(match.output.1)
            if ParsedURL.isURL(url), !urls.contains(url) { urls.append(url) }
        }
    }

    private static func append(_ context: Context, to list: inout [Context]) {
        if !list.contains(context) { list.append(context) }
    }

    /// `id = 42, name = "x", on = true` as a context; nil when anything in it is not a literal.
    static func context(_ text: String) -> Context? {
        var context: Context = [:]
        for field in text.split(separator: ",") {
            let trimmed = field.trimmingCharacters(in: " \t\n")
            if trimmed.isEmpty { continue }
            guard let match = trimmed.wholeMatch(of: #/([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+)/#) else { return nil }
            let name = String(match.output.1), value = String(match.output.2).trimmingCharacters(in: " \t\n")
            if let integer = Int64(value) {
                context[name] = .integer(integer)
            } else if value == "true" || value == "false" {
                context[name] = .boolean(value == "true")
            } else if value.count >= 2, value.first == "\"", value.last == "\"", !value.dropFirst().dropLast().contains("\"") {
                context[name] = .string(String(value.dropFirst().dropLast()))
            } else if let number = Double(value), number.isFinite {
                context[name] = .number(number)
            } else {
                return nil
            }
        }
        return context
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
