/// Maps URLs to values by route pattern, the most specific pattern winning. It is immutable: a
/// ``URLMatcherBuilder`` takes the patterns, refusing ambiguous ones, and builds it.
///
/// ```swift
/// var builder = URLMatcherBuilder<String>()
/// try builder.insert("/books/:id<int>", value: "book")
/// try builder.insert("/books/new", value: "newBook")
/// let matcher = builder.build()
/// let match = try matcher.match("myapp://books/42?ref=home#top")
/// // match?.value == "book", match?.parameters == ["id": .integer(42)], match?.fragment == "top"
/// ```
///
/// **Precedence** is by specificity, not by order of insertion: at each segment a constant is tried
/// before a typed or validated parameter, before a plain parameter, before `*`, before `**`; when a
/// more specific branch fails further down, the next one is tried (backtracking). At the end of a
/// URL, a pattern ending there beats a `**` matching nothing. Patterns naming a scheme and host are
/// tried before patterns without one.
///
/// **Ambiguity** is refused by the builder, at insertion, naming both patterns; a match is never a silent pick:
/// - two patterns with the same shape (same constants, same kinds of parameter in the same places,
///   names aside): `/books/:id` and `/books/:slug`, `/a/:x<int>` and `/a/:y<int>`;
/// - two different typed or validated parameters after the same prefix, unless no segment passes
///   both. Overlap is decided exactly, on the validators' automata: `<int>` and `<uuid>` are
///   disjoint, `<int>` and `{[a-z]+}` too; `<int>` and `{[0-9]+}`, or `{[a-z]+}` and `{[a-c]x}`,
///   overlap and are refused even when the patterns differ later (`/a/:x<int>/b`,
///   `/a/:y{[0-9]+}/c`), because the winner could otherwise depend on insertion order.
///
/// Matching is one walk of a trie (constants by dictionary, validators precompiled), with no
/// pattern re-read and no allocation per segment beyond the URL's own decoding.
public struct URLMatcher<Value> {
    private let trie: URLTrie
    private let routes: [(pattern: RoutePattern, value: Value)]

    /// Whether constants compare case-insensitively (parameters keep the URL's case either way).
    public var isCaseInsensitive: Bool { trie.caseInsensitive }

    /// The registered patterns, in insertion order.
    public var patterns: [RoutePattern] { routes.map(\.pattern) }

    init(trie: URLTrie, routes: [(pattern: RoutePattern, value: Value)]) {
        self.trie = trie
        self.routes = routes
    }

    /// Reads `url` and matches it: throws when the URL is malformed, returns `nil` when no pattern matches.
    public func match(_ url: String) throws(URLRoutingError) -> URLMatch<Value>? {
        match(try ParsedURL(parsing: url))
    }

    /// The most specific match for an already parsed URL, or `nil`.
    public func match(_ url: ParsedURL) -> URLMatch<Value>? {
        guard let (route, start) = trie.find(url) else { return nil }
        let (pattern, value) = routes[Int(route)]
        return URLMatch(value: value, pattern: pattern, url: url, start: start)
    }
}

extension URLMatcher: Sendable where Value: Sendable {}
