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

    /// Completions of a URL or id path from the graph's route patterns and declared children. A
    /// URL with a scheme (`shop://`) completes from the patterns that name it and, when the app
    /// accepts it, from those without one, which match the path of any URL; an id path offers only
    /// ids that may stand there (`NavigationGraph.allows`), so no offer then fails to route.
    static func urls(_ text: String, graph: NavigationGraph) -> [String] {
        var candidates = patternCompletions(text, patterns: graph.urlRoutes.patterns.map(\.pattern.text))
        if let (scheme, rest) = schemeAndRest(of: text) {
            candidates += schemeCompletions(scheme: scheme, rest: rest, graph: graph)
        }
        // An id path: the root's id, then ids allowed below the id before.
        let typed = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let done = typed.dropLast()
        let partial = typed.last ?? ""
        if text.first == "/", done.count >= 1, let ids = idsAllowed(after: done.dropFirst().map(id(of:)), graph: graph) {
            let stem = done.joined(separator: "/") + "/"
            candidates += ids.filter { $0.hasPrefix(partial) }.map { stem + $0 }
        }
        return candidates
    }

    /// The ids that may follow `path` (ids from the root) on a path: the root first, then what
    /// `NavigationGraph.allows` below the last; nil when `path` itself breaks that rule.
    private static func idsAllowed(after path: [String], graph: NavigationGraph) -> [NodeID]? {
        guard let last = path.last else { return [graph.rootID] }
        guard path.first == graph.rootID else { return nil }
        for (parent, child) in zip(path, path.dropFirst()) where !graph.allows(child, below: parent) { return nil }
        guard let parent = graph[last] else { return nil }
        return (parent.children + parent.pushes + graph.anywhereIDs).filter { graph.allows($0, below: last) }
    }

    /// Completions of `text` from `patterns` segment by segment: constant segments only, a
    /// parameter already typed accepting any non-empty segment.
    private static func patternCompletions(_ text: String, patterns: [String]) -> [String] {
        var candidates: [String] = []
        let typed = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let done = typed.dropLast()
        let partial = typed.last ?? ""
        let stem = done.joined(separator: "/") + "/"
        patterns: for pattern in patterns {
            let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
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
        return candidates
    }

    /// `("shop", "p/4")` for `shop://p/4`; nil for text without a scheme.
    private static func schemeAndRest(of text: String) -> (String, String)? {
        guard text.first != "/", ParsedURL.isURL(text), let separator = text.firstRange(of: "://") else { return nil }
        return (text[..<separator.lowerBound].lowercased(), String(text[separator.upperBound...]))
    }

    /// What follows `scheme://` from the patterns without a scheme, when the app accepts the
    /// scheme: for a custom one the path's first segment stands where the host would
    /// (`shop://p/4` is `/p/4`); for the web's, the app's `hosts` first, then the path.
    private static func schemeCompletions(scheme: String, rest: String, graph: NavigationGraph) -> [String] {
        let origins = graph.urlRoutes.origins
        let paths = graph.urlRoutes.patterns.map(\.pattern.text).filter { $0.first == "/" }
        let isWeb = scheme == "http" || scheme == "https"
        let prefix = scheme + "://"
        guard isWeb else {
            guard origins.isOpen || origins.schemes.contains(scheme) else { return [] }
            return patternCompletions("/" + rest, patterns: paths).map { prefix + $0.dropFirst() }
        }
        guard let slash = rest.firstIndex(of: "/") else {
            return origins.hosts.sorted().filter { $0.hasPrefix(rest.lowercased()) }.map { prefix + $0 + "/" }
        }
        let host = rest[..<slash].lowercased()
        guard origins.isOpen || origins.schemes.contains(scheme) || origins.hosts.contains(host) else { return [] }
        return patternCompletions(String(rest[slash...]), patterns: paths).map { prefix + rest[..<slash] + $0 }
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
