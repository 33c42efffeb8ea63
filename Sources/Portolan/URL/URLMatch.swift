/// What a URL matched: the registered value, the pattern, its parameters (typed), and the URL's
/// query and fragment, which travel with a request but are not part of any entry's identity.
public struct URLMatch<Value> {
    /// The value registered with the pattern (a node id, a route, anything).
    public let value: Value
    /// The pattern that matched.
    public let pattern: RoutePattern
    /// The pattern's captured parameters: `<int>` as ``ContextValue/integer(_:)``, `<uuid>` as a
    /// lowercase ``ContextValue/string(_:)``, plain and validated parameters as strings, a named
    /// `**` as its segments joined by `/` (possibly empty).
    public let parameters: [String: ContextValue]
    /// The URL's query items, in order, repeats kept.
    public let query: [ParsedURL.QueryItem]
    /// The URL's fragment, or `nil` when it has none.
    public let fragment: String?

    public init(
        value: Value, pattern: RoutePattern, parameters: [String: ContextValue],
        query: [ParsedURL.QueryItem] = [], fragment: String? = nil
    ) {
        self.value = value
        self.pattern = pattern
        self.parameters = parameters
        self.query = query
        self.fragment = fragment
    }

    /// Builds a match from the segments `pattern` matched, starting at `start` in `url`.
    init(value: Value, pattern: RoutePattern, url: ParsedURL, start: Int) {
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
        self.init(value: value, pattern: pattern, parameters: parameters, query: url.query, fragment: url.fragment)
    }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String?] {
        query.filter { $0.name == name }.map(\.value)
    }
}

extension URLMatch: Sendable where Value: Sendable {}
extension URLMatch: Equatable where Value: Equatable {}
