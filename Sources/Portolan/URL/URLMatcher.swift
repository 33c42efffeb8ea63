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
/// pattern re-read and no allocation per segment beyond the URL's own decoding. A URL that is a
/// plain path (no scheme, no `%`, ASCII) and a pattern of constants alone is found in one probe
/// of the trie's index of such patterns, by a hash of the whole path, before its segments are
/// made into strings (`ConstantPaths`).
///
/// The two `match` methods are inlinable shells around the trie's non-generic work, so that a
/// caller in another module gets them specialised for its `Value`.
public struct URLMatcher<Value> {
    @usableFromInline let trie: BuiltTrie
    /// The registered values, by route.
    @usableFromInline let values: [Value]

    /// Whether constants compare case-insensitively (parameters keep the URL's case either way),
    /// unless a pattern's options say otherwise.
    public var isCaseInsensitive: Bool { trie.trie.caseInsensitive }

    /// Whether a pattern's final slash is significant, unless its options say otherwise.
    public var hasSignificantTrailingSlash: Bool { trie.trie.significantTrailingSlash }

    /// The registered patterns, in insertion order.
    public var patterns: [RoutePattern] { trie.trie.patterns }

    init(trie: URLTrie, values: [Value]) {
        self.trie = BuiltTrie(trie)
        self.values = values
    }

    /// Reads `url` and matches it: throws when the URL is malformed, returns `nil` when no pattern matches.
    @inlinable
    public func match(_ url: String) throws(URLRoutingError) -> URLMatch<Value>? {
        guard let found = try trie.match(url) else { return nil }
        return URLMatch(value: values[found.route], pattern: trie.pattern(found.route), found)
    }

    /// The most specific match for an already parsed URL, or `nil`.
    @inlinable
    public func match(_ url: ParsedURL) -> URLMatch<Value>? {
        guard let found = trie.match(url) else { return nil }
        return URLMatch(value: values[found.route], pattern: trie.pattern(found.route), found)
    }
}

extension URLMatcher: Sendable where Value: Sendable {}
