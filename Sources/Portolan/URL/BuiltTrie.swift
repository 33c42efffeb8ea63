/// The trie a built ``URLMatcher`` reads, behind one reference: copying or capturing a matcher,
/// and reading a URL inside a closure over its bytes, then retain one object rather than each of
/// the trie's arrays. Immutable: a builder goes on changing its own ``URLTrie``.
@usableFromInline
final class BuiltTrie: Sendable {
    let trie: URLTrie

    init(_ trie: URLTrie) {
        self.trie = trie
    }

    /// Reads `text` and matches it: a plain path that is a constant pattern's is matched by the
    /// trie's ``ConstantPaths`` as soon as it is laid out, without making strings of its segments
    /// (what is left to read, its query and fragment, fails exactly as the whole reading would);
    /// any other URL is read whole, then walked.
    @usableFromInline
    func match(_ text: String) throws(URLRoutingError) -> MatchedRoute? {
        try URLReader.reading(text) { reader throws(URLRoutingError) -> MatchedRoute? in
            let layout = try reader.layout()
            if let hash = layout.plainPathHash,
                let route = trie.constantRoute(hash: hash, path: UnsafeBufferPointer(rebasing: reader.bytes[..<layout.pathEnd]))
            {
                let (query, fragment) = try reader.queryAndFragment(layout)
                return MatchedRoute(route: route, query: query, fragment: fragment)
            }
            return trie.match(try reader.read(layout, original: text))
        }
    }

    /// The pattern of `route`.
    @usableFromInline
    func pattern(_ route: Int) -> RoutePattern {
        trie.patterns[route]
    }

    /// The most specific route matching `url`, with its parameters.
    @usableFromInline
    func match(_ url: ParsedURL) -> MatchedRoute? {
        trie.match(url)
    }
}
