/// Where a URL leads in a graph: the node its most specific pattern names, the destination from
/// the root to that node with the URL's parameters as the entries' contexts, and the query and
/// fragment, which travel with the route but are no part of any entry's identity.
public struct URLResolution: Sendable, Equatable {
    public let url: String
    public let node: NodeID
    /// The pattern that matched, as declared.
    public let pattern: String
    public let destination: Destination
    /// The matched pattern's parameters, typed (`<int>` as integers): the node's context.
    public let parameters: Context
    public let query: [ParsedURL.QueryItem]
    public let fragment: String?
}

extension NavigationGraph {
    /// Resolves a URL: `invalid` when it is malformed, `unreachable` when no pattern matches.
    ///
    /// This is the one URL pipeline: the origin of the URL as received, then the redirect rules
    /// (in declaration order, at most `maxRedirects` rewrites), then the route patterns. Each URL
    /// of the way is parsed once.
    ///
    /// Ancestors of the matched node that have patterns of their own take their contexts from the
    /// part of the URL those patterns describe. A node reachable from anywhere becomes an anywhere
    /// destination; a node below one cannot be resolved alone, since its path depends on where
    /// the anywhere node was entered.
    public func resolve(
        url text: String, redirectedBy redirects: URLRedirects = URLRedirects(), maxRedirects: Int = 8
    ) throws(RouteFailure) -> URLResolution {
        let received = try checkOrigin(ofReceived: text)
        let (rewritten, read) = try redirects.apply(to: text, read: received.map { .success($0) }, limit: maxRedirects)
        let url = try (read ?? ParsedURL.reading(rewritten)).get()
        // A template or a function rule may name an origin too.
        if rewritten != text { try refuseForeign(url, text: rewritten) }
        guard let match = urlRoutes.match(url) else {
            throw RouteFailure(.unreachable, "no route matches '\(Excerpt.of(rewritten))'")
        }
        let lineage = lineage(of: match.value)
        let entries = lineage.map { id in
            Entry(id, context: id == match.value ? match.parameters : urlRoutes.prefixParameters(of: id, in: url))
        }
        return URLResolution(
            url: rewritten, node: match.value, pattern: match.pattern.text,
            destination: try destination(of: entries), parameters: match.parameters,
            query: match.query, fragment: match.fragment)
    }

    /// Refuses a URL from an origin the app does not accept (`hosts`, `schemes`). Checked on the
    /// URL as received, before any redirect rule runs: a rule that rewrites
    /// `https://evil.example/films/2` to `/films/2` must not make a foreign link routable. With
    /// origins declared, a URL that does not parse is refused too, since its origin is unknown;
    /// the URL read then is returned, so that it is not read again. With none, nil: the URL is
    /// read when something needs it (a function rule takes the text, and may rewrite any text).
    private func checkOrigin(ofReceived text: String) throws(RouteFailure) -> ParsedURL? {
        guard !urlRoutes.origins.isOpen else { return nil }
        let url = try ParsedURL.reading(text).get()
        try refuseForeign(url, text: text)
        return url
    }

    private func refuseForeign(_ url: ParsedURL, text: String) throws(RouteFailure) {
        let origins = urlRoutes.origins
        guard origins.accepts(url) else {
            throw RouteFailure(.unreachable, "'\(Excerpt.of(text))' comes from outside the app, which accepts \(origins.summary)")
        }
    }

    private func destination(of entries: [Entry]) throws(RouteFailure) -> Destination {
        guard let first = entries.first, let last = entries.last else {
            throw RouteFailure(.unreachable, "the matched node is not declared")
        }
        guard self[first.id]?.isAnywhere == true else { return .path(entries) }
        guard entries.count == 1 else {
            throw RouteFailure(
                .unreachable, "'\(last.id)' is inside the anywhere node '\(first.id)'; route to '\(first.id)' first")
        }
        return .anywhere(first)
    }
}
