/// What the trie found for a URL: its route and what a ``URLMatch`` carries beside the value and
/// the pattern, which the generic ``URLMatcher`` adds (by route, so that nothing here is copied
/// twice). Built here, in code that is not generic, so that a matcher used from
/// another module pays for no generic metadata beyond its own short, inlined shell.
@usableFromInline
struct MatchedRoute {
    /// The route's index: its pattern's and value's place in insertion order.
    @usableFromInline let route: Int
    @usableFromInline let parameters: [String: ContextValue]
    @usableFromInline let query: [ParsedURL.QueryItem]
    @usableFromInline let fragment: String?

    /// A pattern of constants alone, which captures nothing.
    init(route: Int32, query: [ParsedURL.QueryItem], fragment: String?) {
        self.route = Int(route)
        self.parameters = [:]
        self.query = query
        self.fragment = fragment
    }

    /// `pattern`'s parameters from the segments it matched, starting at `start` in `url`.
    init(route: Int32, pattern: RoutePattern, url: ParsedURL, start: Int) {
        var parameters: [String: ContextValue] = [:]
        let segments = url.routingSegments
        for (offset, segment) in pattern.segments.enumerated() {
            let index = start + offset
            switch segment {
            case .constant, .anySegment:
                continue
            case .parameter(let name), .validated(let name, _):
                parameters[name] = .string(segments[index])
            case .typed(let name, let type):
                parameters[name] = type.value(of: segments[index]) ?? .string(segments[index])
            case .rest(let name):
                if let name { parameters[name] = .string(segments[min(index, segments.count)...].joined(separator: "/")) }
            }
        }
        self.route = Int(route)
        self.parameters = parameters
        self.query = url.query
        self.fragment = url.fragment
    }
}
