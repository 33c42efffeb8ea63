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

    @inlinable
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

    /// The match of `found`, whose value is `value` and pattern `pattern`.
    @inlinable
    init(value: Value, pattern: RoutePattern, _ found: MatchedRoute) {
        self.init(value: value, pattern: pattern, parameters: found.parameters, query: found.query, fragment: found.fragment)
    }

    /// The values of the query items named `name`, in order.
    public func queryValues(_ name: String) -> [String?] {
        query.filter { $0.name == name }.map(\.value)
    }
}

extension URLMatch: Sendable where Value: Sendable {}
extension URLMatch: Equatable where Value: Equatable {}
