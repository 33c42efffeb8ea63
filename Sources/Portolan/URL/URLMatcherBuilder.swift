/// Takes route patterns one by one, refusing ambiguous ones, and builds the ``URLMatcher`` that
/// answers queries: the patterns are settled before any URL is matched.
public struct URLMatcherBuilder<Value> {
    private var trie: URLTrie
    private var values: [Value] = []

    /// An empty builder; `caseInsensitive` makes constant segments compare without case, and
    /// `significantTrailingSlash` makes a pattern's final slash part of what it matches (`/a/`
    /// is then not `/a`), for every pattern whose ``RouteOptions`` do not say otherwise.
    public init(caseInsensitive: Bool = false, significantTrailingSlash: Bool = false) {
        trie = URLTrie(caseInsensitive: caseInsensitive, significantTrailingSlash: significantTrailingSlash)
    }

    /// Whether constants compare case-insensitively, unless a pattern's options say otherwise.
    public var isCaseInsensitive: Bool { trie.caseInsensitive }

    /// Whether a final slash is significant, unless a pattern's options say otherwise.
    public var hasSignificantTrailingSlash: Bool { trie.significantTrailingSlash }

    /// The patterns inserted so far, in insertion order.
    public var patterns: [RoutePattern] { trie.patterns }

    /// Parses `pattern` and registers it, or throws a parse error or ``URLRoutingError/ambiguous(existing:new:reason:)``.
    public mutating func insert(_ pattern: String, value: Value) throws(URLRoutingError) {
        try insert(RoutePattern(pattern), value: value)
    }

    /// Registers `pattern`, or throws ``URLRoutingError/ambiguous(existing:new:reason:)`` naming the
    /// registered pattern it conflicts with. A refused pattern leaves the builder unchanged.
    public mutating func insert(_ pattern: RoutePattern, value: Value) throws(URLRoutingError) {
        try trie.insert(pattern)
        values.append(value)
    }

    /// The matcher of the patterns inserted so far; the builder may go on taking more.
    public func build() -> URLMatcher<Value> {
        URLMatcher(trie: trie, values: values)
    }
}

extension URLMatcherBuilder: Sendable where Value: Sendable {}
