/// The URL route patterns of a graph's nodes, compiled once when the graph is declared.
///
/// One matcher finds the most specific pattern for a URL among all nodes; and each node with
/// patterns has its own prefix matcher, so that an ancestor of the matched node takes its context
/// from the part of the URL its own pattern describes (`/movies/:id` of a movie, when the URL
/// `/movies/7/cast/3` leads to one of its cast screens).
public struct GraphRoutes: Sendable {
    private let matcher: URLMatcher<NodeID>
    private let prefixMatchers: [NodeID: URLMatcher<Int>]
    private let owners: [String: NodeID]

    /// The schemes and hosts URLs may come from (the root's `schemes` and `hosts`).
    public let origins: URLOrigins

    public var isCaseInsensitive: Bool { matcher.isCaseInsensitive }

    /// Whether any node has a route pattern.
    public var isEmpty: Bool { owners.isEmpty }

    /// Every pattern with the node it leads to, in declaration order.
    public var patterns: [(pattern: RoutePattern, node: NodeID)] {
        matcher.patterns.map { ($0, owners[$0.text] ?? "") }
    }

    /// Takes the graph's patterns as its nodes are declared, then builds the routes.
    struct Builder {
        private var matcher: URLMatcherBuilder<NodeID>
        private var prefixMatchers: [NodeID: URLMatcherBuilder<Int>] = [:]
        private var owners: [String: NodeID] = [:]
        private let origins: URLOrigins

        init(caseInsensitive: Bool, significantTrailingSlash: Bool = false, origins: URLOrigins = .any) {
            matcher = URLMatcherBuilder(caseInsensitive: caseInsensitive, significantTrailingSlash: significantTrailingSlash)
            self.origins = origins
        }

        mutating func add(_ text: String, options: RouteOptions = .app, to node: NodeID) throws(GraphError) {
            do {
                let pattern = try RoutePattern(text, options: options)
                try matcher.insert(pattern, value: node)
                owners[pattern.text] = node
                addPrefix(of: pattern, to: node)
            } catch .ambiguous(let existing, _, let reason) {
                throw .ambiguousRoutes(node, pattern: text, otherNode: owners[existing] ?? "?", otherPattern: existing, reason: reason)
            } catch {
                throw .invalidRoute(node, pattern: text, reason: error.description)
            }
        }

        private mutating func addPrefix(of pattern: RoutePattern, to node: NodeID) {
            var prefixes = prefixMatchers[node] ?? URLMatcherBuilder(caseInsensitive: matcher.isCaseInsensitive)
            // Two patterns of one node may share a prefix form (`/a` and `/a/**`): the first serves
            // both. A pattern with a part of several segments already in it has none (`/**p/edit/**`
            // would have two), and its ancestors take no context from its URLs.
            var options = pattern.options
            options.significantTrailingSlash = false
            if let prefix = try? RoutePattern(GraphRoutes.prefixPattern(of: pattern), options: options) {
                try? prefixes.insert(prefix, value: 0)
            }
            prefixMatchers[node] = prefixes
        }

        func build() -> GraphRoutes {
            GraphRoutes(
                matcher: matcher.build(), prefixMatchers: prefixMatchers.mapValues { $0.build() }, owners: owners,
                origins: origins)
        }
    }

    private init(
        matcher: URLMatcher<NodeID>, prefixMatchers: [NodeID: URLMatcher<Int>], owners: [String: NodeID], origins: URLOrigins
    ) {
        self.matcher = matcher
        self.prefixMatchers = prefixMatchers
        self.owners = owners
        self.origins = origins
    }

    /// The node `url` leads to, or nil; throws when the URL is malformed.
    func match(_ url: ParsedURL) -> URLMatch<NodeID>? {
        matcher.match(url)
    }

    /// The parameters `node`'s own patterns capture from the start of `url`; empty when none fits.
    func prefixParameters(of node: NodeID, in url: ParsedURL) -> [String: ContextValue] {
        prefixMatchers[node]?.match(url)?.parameters ?? [:]
    }

    /// `pattern` followed by anything, so that it matches URLs it is a prefix of.
    fileprivate static func prefixPattern(of pattern: RoutePattern) -> String {
        if pattern.alternatives.allSatisfy({ if case .rest? = $0.segments.last { true } else { false } }) { return pattern.text }
        return pattern.text.hasSuffix("/") ? pattern.text + "**" : pattern.text + "/**"
    }
}
