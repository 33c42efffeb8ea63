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
    /// Ancestors of the matched node that have patterns of their own take their contexts from the
    /// part of the URL those patterns describe. A node reachable from anywhere becomes an anywhere
    /// destination; a node below one cannot be resolved alone, since its path depends on where
    /// the anywhere node was entered.
    public func resolve(url text: String) throws(RouteFailure) -> URLResolution {
        let url: ParsedURL
        do {
            url = try ParsedURL(parsing: text)
        } catch {
            throw RouteFailure(.invalid, "malformed URL '\(Excerpt.of(text))': \(error)")
        }
        try checkOrigin(ofReceived: text)   // again after the redirect rules: a template may name an origin
        guard let match = urlRoutes.match(url) else {
            throw RouteFailure(.unreachable, "no route matches '\(Excerpt.of(text))'")
        }
        let lineage = lineage(of: match.value)
        let entries = lineage.map { id in
            Entry(id, context: id == match.value ? match.parameters : urlRoutes.prefixParameters(of: id, in: url))
        }
        return URLResolution(
            url: text, node: match.value, pattern: match.pattern.text,
            destination: try destination(of: entries), parameters: match.parameters,
            query: match.query, fragment: match.fragment)
    }

    /// Refuses a URL from an origin the app does not accept (`hosts`, `schemes`). Checked on the
    /// URL as received, before any redirect rule runs: a rule that rewrites
    /// `https://evil.example/films/2` to `/films/2` must not make a foreign link routable. With
    /// origins declared, a URL that does not parse is refused too, since its origin is unknown.
    public func checkOrigin(ofReceived text: String) throws(RouteFailure) {
        let origins = urlRoutes.origins
        guard !origins.isOpen else { return }
        let url: ParsedURL
        do {
            url = try ParsedURL(parsing: text)
        } catch {
            throw RouteFailure(.invalid, "malformed URL '\(Excerpt.of(text))': \(error)")
        }
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
