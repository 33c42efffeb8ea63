import Portolan
import TestSupport

/// Where the fuzzers and the soak route: paths to declared nodes, URLs their patterns match, and
/// destinations and URLs that lead nowhere or are malformed.
public enum RouteTargets {
    /// The ids of `graph`'s nodes in a fixed order (a graph keeps them in a dictionary, whose order
    /// changes from process to process), so that a seed reproduces the same routes.
    public static func nodeIDs(of graph: NavigationGraph) -> [NodeID] {
        graph.nodes.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The path from the root, or from the anywhere node above it (a modal flow), to `id`, each
    /// entry with the context `context` gives it.
    public static func path(to id: NodeID, in graph: NavigationGraph, context: (NodeID) -> Context = { _ in [:] }) -> Destination {
        .path(graph.lineage(of: id).map { Entry($0, context: context($0)) })
    }

    /// A URL `pattern` matches, with parameters drawn at random (an integer for `<int>`, a UUID,
    /// letters or a word for a validator, which may not match, a few segments for `**`); a query
    /// and a fragment now and then. Nil when the pattern does not parse.
    public static func url(matching pattern: String, _ random: inout SeededRandom) -> String? {
        guard let parsed = try? RoutePattern(pattern) else { return nil }
        let path = random.element(parsed.alternatives)
        var segments: [String] = []
        for segment in path.segments {
            switch segment {
            case .constant(let text):
                segments.append(text.addingPercentEscapesForSegment)
            case .typed(_, .int):
                segments.append(String(random.element([0, 1, 7, 42, -3, Int.max])))
            case .typed(_, .uuid):
                segments.append("3f2504e0-4f89-11d3-9a0c-0305e82c330\(random.int(in: 0...9))")
            case .validated, .parameter, .anySegment:
                segments.append(random.element(["a", "en", "fr", "abc", "X1", "%C3%A9", "42"]))
            case .composite(let composite):
                segments.append(composite.pieces.map { piece in
                    switch piece {
                    case .text(let text): text.addingPercentEscapesForSegment
                    case .parameter(_, .int?): String(random.element([0, 7, -3]))
                    case .parameter(_, .uuid?): "3f2504e0-4f89-11d3-9a0c-0305e82c3301"
                    case .parameter: random.element(["a", "b.c", "x-y", "%C3%A9"])
                    }
                }.joined())
            case .rest(_, let atLeastOne):
                segments += (0..<random.int(in: (atLeastOne ? 1 : 0)...3)).map { _ in random.element(["x", "y", "1"]) }
            }
        }
        var url = "/" + segments.joined(separator: "/") + (path.endsWithSlash && random.oneIn(2) ? "/" : "")
        if let scheme = parsed.scheme { url = scheme + "://" + (parsed.host ?? "") + url }
        if random.oneIn(4) { url += random.element(["?ref=push", "?a=1&a=2", "#cast", "?q=%20#x"]) }
        return url
    }

    /// A URL that matches nothing or is malformed (docs/rules.md: empty, a lone `?`, a bad `%` escape, a
    /// control character, too long, too many segments).
    public static func strayURL(_ random: inout SeededRandom) -> String {
        random.element([
            "/nowhere/\(random.int(in: 0...99))", "", "?", "/%zz", "/a%", "/\u{1}", "/a\u{7F}", "//", "myapp://",
            "/" + String(repeating: "a", count: 4_100), String(repeating: "/a", count: 257), "/%FF", "https://h.com",
        ])
    }
}

extension String {
    /// The text as one URL path segment: `%` and `/`, and anything not printable ASCII, escaped.
    fileprivate var addingPercentEscapesForSegment: String {
        var escaped = ""
        for byte in utf8 {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "/")
                && byte != UInt8(ascii: "?") && byte != UInt8(ascii: "#") {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }
}
