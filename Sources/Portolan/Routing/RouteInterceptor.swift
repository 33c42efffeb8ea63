/// A route about to run, as interceptors see it.
public struct RouteRequest: Sendable, Equatable {
    /// Where the route goes (after the redirects so far).
    public let destination: Destination
    /// The active path the route starts from.
    public let from: [Entry]
    /// The URL the route was asked for, with its query and fragment; nil for a route asked for
    /// by destination, and after an interceptor redirected it.
    public let url: URLResolution?
    /// The step that asked for the route, if one did.
    public let step: RouteStep?
    /// Whether this is a dry run (`Router.plan`): the decision is reported, never acted on. A
    /// decision must have no side effects either way; this lets one skip costly work a plan need not do.
    public let isDryRun: Bool

    public init(destination: Destination, from: [Entry], url: URLResolution? = nil, step: RouteStep? = nil, isDryRun: Bool = false) {
        self.destination = destination
        self.from = from
        self.url = url
        self.step = step
        self.isDryRun = isDryRun
    }

    /// Whether the route ends at, or passes through, the node `id`.
    public func goes(to id: NodeID) -> Bool {
        destination.namedEntries.contains { $0.id == id }
    }
}

/// What an interceptor decides about a route.
public enum InterceptionDecision: Sendable, Hashable {
    case pass
    case deny(String)
    case redirect(Destination)
}

/// Runs before every route and may let it pass, deny it or send it elsewhere. It also runs for
/// every plan (`request.isDryRun`), so a decision must change nothing: no state, no routes.
///
/// A redirected route runs every interceptor again on its new destination; the router cuts a
/// chain of redirects that does not settle (`RouterConfiguration.maxRedirects`).
public protocol RouteInterceptor: Sendable {
    func intercept(_ request: RouteRequest) async throws -> InterceptionDecision
}

/// An interceptor made of a closure.
public struct ClosureInterceptor: RouteInterceptor {
    private let decide: @Sendable (RouteRequest) async throws -> InterceptionDecision

    public init(_ decide: @escaping @Sendable (RouteRequest) async throws -> InterceptionDecision) {
        self.decide = decide
    }

    public func intercept(_ request: RouteRequest) async throws -> InterceptionDecision {
        try await decide(request)
    }
}
