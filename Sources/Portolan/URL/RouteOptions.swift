/// How one route's pattern reads letters and a final slash, where it differs from the app's
/// defaults (the root's `case_insensitive_routes` and `significant_trailing_slash`). Vue Router
/// calls these `sensitive` and `strict`, and sets them per router and per route record alike.
public struct RouteOptions: Sendable, Hashable {
    /// Whether the route's constants match letters in any case; `nil` takes the app's.
    public var caseInsensitive: Bool?
    /// Whether a final `/` must be as the pattern writes it (`/a/` is then not `/a`); `nil` takes
    /// the app's. Without it, a URL's trailing slash is ignored, as repeated slashes are.
    public var significantTrailingSlash: Bool?

    public init(caseInsensitive: Bool? = nil, significantTrailingSlash: Bool? = nil) {
        self.caseInsensitive = caseInsensitive
        self.significantTrailingSlash = significantTrailingSlash
    }

    /// The options that defer to the app in everything.
    public static let app = RouteOptions()
}

/// What a route's pattern asks of a URL's final slash.
enum TrailingSlash: Sendable, Hashable {
    /// Either way: the slash is not significant for this route.
    case ignored
    /// The URL must end with a `/` (after at least one segment).
    case required
    /// The URL must not end with a `/`.
    case forbidden

    /// Whether a URL that does (or does not) end with a slash satisfies this.
    func accepts(trailingSlash: Bool) -> Bool {
        switch self {
        case .ignored: true
        case .required: trailingSlash
        case .forbidden: !trailingSlash
        }
    }

    /// Whether some URL satisfies both.
    func overlaps(_ other: TrailingSlash) -> Bool {
        self == .ignored || other == .ignored || self == other
    }
}
