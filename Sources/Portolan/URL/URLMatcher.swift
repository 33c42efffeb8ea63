/// Maps URLs to values by route pattern, the most specific pattern winning.
///
/// ```swift
/// var matcher = URLMatcher<String>()
/// try matcher.insert("/books/:id<int>", value: "book")
/// try matcher.insert("/books/new", value: "newBook")
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
/// **Ambiguity** is refused at insertion, naming both patterns; a match is never a silent pick:
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
    private var trie: URLTrie
    private var routes: [(pattern: RoutePattern, value: Value)] = []

    /// Whether constants compare case-insensitively (parameters keep the URL's case either way).
    public var isCaseInsensitive: Bool { trie.caseInsensitive }

    /// The registered patterns, in insertion order.
    public var patterns: [RoutePattern] { routes.map(\.pattern) }

    /// An empty matcher; `caseInsensitive` makes constant segments compare without case.
    public init(caseInsensitive: Bool = false) {
        trie = URLTrie(caseInsensitive: caseInsensitive)
    }

    /// Parses `pattern` and registers it, or throws a parse error or ``URLRoutingError/ambiguous(existing:new:reason:)``.
    public mutating func insert(_ pattern: String, value: Value) throws(URLRoutingError) {
        try insert(RoutePattern(pattern), value: value)
    }

    /// Registers `pattern`, or throws ``URLRoutingError/ambiguous(existing:new:reason:)`` naming the
    /// registered pattern it conflicts with. A refused pattern leaves the matcher unchanged.
    public mutating func insert(_ pattern: RoutePattern, value: Value) throws(URLRoutingError) {
        let routes = self.routes
        try trie.insert(pattern, route: Int32(routes.count)) { routes[Int($0)].pattern.text }
        self.routes.append((pattern, value))
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
