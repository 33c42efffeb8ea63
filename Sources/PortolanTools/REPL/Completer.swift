import Portolan
import PortolanLua

/// The completion rules, apart from the Lua state they ask about globals and fields.
enum Completer {
    /// Lua's reserved words, offered with the globals.
    static let keywords = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// What the text before the cursor asks to complete.
    enum Request: Equatable {
        /// A `:` command name (the partial name, colon excluded).
        case command(String)
        /// An argument of a `:` command that takes one of a few words.
        case commandArgument(word: String, choices: [String])
        /// A URL or an id path (the whole text from its first `/` or scheme).
        case url(String)
        /// Inside a Lua string literal: node ids, or a URL when the string starts with `/`.
        case string(String)
        /// A Lua name: `table` is the dotted path before the last `.` or `:` (nil for a global).
        case name(table: String?, partial: String, separator: String)
        case nothing
    }

    /// Classifies `prefix`, the text before the cursor; `atChunkStart` is false while a chunk
    /// continues over lines (then every line is Lua).
    static func request(for prefix: String, atChunkStart: Bool) -> Request {
        let leading = prefix.drop(while: { $0 == " " || $0 == "\t" })
        if atChunkStart {
            if leading.first == ":" && !leading.hasPrefix("::") {
                let body = leading.dropFirst()
                guard let space = body.firstIndex(where: { $0 == " " }) else {
                    return .command(String(body))
                }
                let name = String(body[..<space])
                let argument = String(body[space...].drop(while: { $0 == " " }))
                switch name {
                case "plan":
                    if argument.first == "/" || ParsedURL.isURL(argument) { return .url(argument) }
                    return luaRequest(argument)
                case "graph":
                    if argument.contains(" ") { return .nothing }
                    return .commandArgument(word: argument, choices: GraphFormat.allCases.map(\.rawValue))
                case "events":
                    return .commandArgument(word: argument, choices: ["on", "off"])
                case "record":
                    return argument.contains(" ") ? .nothing : .commandArgument(word: argument, choices: ["off"])
                default:
                    return .nothing
                }
            }
            let text = String(leading)
            if text.first == "/" || (ParsedURL.isURL(text) && !text.contains(" ")) { return .url(text) }
        }
        return luaRequest(String(prefix))
    }

    private static func luaRequest(_ text: String) -> Request {
        if let string = openString(in: text) { return .string(string) }
        // The trailing name chain: `portolan.ro`, `string.fo`, `obj:me`, `pri`.
        var chain = ""
        for character in text.reversed() {
            if character.isLetter || character.isNumber || character == "_" || character == "." || character == ":" {
                chain.insert(character, at: chain.startIndex)
            } else {
                break
            }
        }
        guard let first = chain.first, !first.isNumber, first != ".", first != ":" else {
            return chain.isEmpty ? .name(table: nil, partial: "", separator: "") : .nothing
        }
        guard let separator = chain.lastIndex(where: { $0 == "." || $0 == ":" }) else {
            return .name(table: nil, partial: chain, separator: "")
        }
        let table = String(chain[..<separator])
        // `a:b.c` is not a name chain; `a..b` neither.
        if table.contains(":") || table.contains("..") || table.hasSuffix(".") { return .nothing }
        return .name(table: table, partial: String(chain[chain.index(after: separator)...]),
                     separator: String(chain[separator]))
    }

    /// The contents so far of a string literal the text leaves open, or nil.
    static func openString(in text: String) -> String? {
        var quote: Character?
        var contents = ""
        var escaped = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            if let open = quote {
                if escaped {
                    escaped = false
                    contents.append(character)
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                } else {
                    contents.append(character)
                }
            } else if character == "\"" || character == "'" {
                quote = character
                contents = ""
            } else if character == "-" {
                // A comment (`--`) ends the code on this line.
                if let next = iterator.next() {
                    if next == "-" { return nil }
                    if next == "\"" || next == "'" { quote = next; contents = "" }
                }
            }
        }
        return quote == nil ? nil : contents
    }

    // MARK: URLs and id paths

    /// Completions of a URL or id path from the graph's route patterns and declared children.
    static func urls(_ text: String, graph: NavigationGraph) -> [String] {
        var candidates: [String] = []
        let typed = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let done = typed.dropLast()
        let partial = typed.last ?? ""
        let stem = done.joined(separator: "/") + "/"
        patterns: for (pattern, _) in graph.urlRoutes.patterns {
            let segments = pattern.text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard segments.count > done.count else { continue }
            for (index, segment) in done.enumerated() {
                let wanted = segments[index]
                if wanted.hasPrefix("**") { continue patterns }
                let isParameter = wanted.hasPrefix(":") || wanted == "*"
                if isParameter ? segment.isEmpty : wanted != segment { continue patterns }
            }
            let next = segments[done.count]
            guard !next.hasPrefix(":"), !next.hasPrefix("*"), next.hasPrefix(partial) else { continue }
            candidates.append(stem + next + (segments.count > done.count + 1 ? "/" : ""))
        }
        // An id path: the root's id, then declared children (and anywhere nodes) of the id before.
        if text.first == "/", done.count >= 1 {
            var ids: [NodeID] = []
            if done.count == 1 {
                ids = [graph.rootID]
            } else if let parent = graph[id(of: done.last ?? "")], id(of: done[1]) == graph.rootID {
                ids = parent.children + graph.anywhereIDs
            }
            for id in ids where id.hasPrefix(partial) {
                candidates.append(stem + id)
            }
        }
        return candidates
    }

    /// The id of an id-path segment (`movie` in `movie{id=4}`).
    private static func id(of segment: String) -> String {
        String(segment.prefix(while: { $0 != "{" }))
    }

    /// Node ids that start with `partial`.
    static func nodeIDs(_ partial: String, graph: NavigationGraph) -> [String] {
        graph.nodes.map(\.id).filter { $0.hasPrefix(partial) }
    }
}
