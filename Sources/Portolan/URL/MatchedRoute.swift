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

    /// The parameters `alternative` (a path of the route's pattern) captures from the segments it
    /// matched, starting at `start` in `url`. What follows a multi-segment part is matched
    /// against the URL's last segments, and the part takes what lies between.
    init(route: Int32, alternative: RoutePattern.Alternative, foldingCase: Bool, url: ParsedURL, start: Int) {
        var parameters: [String: ContextValue] = [:]
        // Made the size it ends at: a dictionary grown one parameter at a time is copied as it grows.
        parameters.reserveCapacity(alternative.parameterCount)
        let segments = url.routingSegments
        let pattern = alternative.segments
        let suffixStart = alternative.restIndex.map { segments.count - (pattern.count - $0 - 1) } ?? segments.count
        for (offset, segment) in pattern.enumerated() {
            // Before the part that takes several segments, counted from the start; after it, from the end.
            let index = alternative.restIndex.map { offset > $0 ? suffixStart + offset - $0 - 1 : start + offset } ?? start + offset
            guard index <= segments.count else { break }
            switch segment {
            case .constant, .anySegment:
                continue
            case .parameter(let name), .validated(let name, _):
                if index < segments.count { parameters[name] = .string(segments[index]) }
            case .typed(let name, let type):
                if index < segments.count { parameters[name] = type.value(of: segments[index]) ?? .string(segments[index]) }
            case .composite(let composite):
                guard index < segments.count else { continue }
                _ = composite.capture(segments[index], foldingCase: foldingCase, into: &parameters)
            case .rest(let name, _):
                guard let name else { continue }
                let upper = max(index, min(suffixStart, segments.count))
                parameters[name] = .string(segments[index..<upper].joined(separator: "/"))
            }
        }
        self.route = Int(route)
        self.parameters = parameters
        self.query = url.query
        self.fragment = url.fragment
    }
}
