/// A route about to run, as interceptors see it.
public struct RouteRequest: Sendable, Equatable {
    /// Where the route goes (after the redirects so far).
    public let destination: Destination
    /// The active path the route starts from.
    public let from: [Entry]
    /// The URL of where the request goes, with its query and fragment: the URL the route was
    /// asked for, or the one a redirect named (`InterceptionDecision.redirectToURL`); nil for a
    /// destination asked for or redirected to by value.
    public let url: URLResolution?
    /// The step that asked for the route, if one did.
    public let step: RouteStep?
    /// Whether this is a dry run (`Router.plan`): the decision is reported, never acted on. A
    /// decision must have no side effects either way; this lets one skip costly work a plan need not do.
    public let isDryRun: Bool
    /// The destination the navigation was first asked for, when this request is a redirect hop
    /// (Vue Router's `redirectedFrom`); nil on the first. A check meant once per navigation (a
    /// count, a log line) runs only where this is nil.
    public let redirectedFrom: Destination?

    public init(
        destination: Destination, from: [Entry], url: URLResolution? = nil, step: RouteStep? = nil, isDryRun: Bool = false,
        redirectedFrom: Destination? = nil
    ) {
        self.destination = destination
        self.from = from
        self.url = url
        self.step = step
        self.isDryRun = isDryRun
        self.redirectedFrom = redirectedFrom
    }

    /// Whether the route ends at, or passes through, the node `id`.
    public func goes(to id: NodeID) -> Bool {
        destination.entries(from: from).contains { $0.id == id }
    }
}

/// What an interceptor decides about a route.
public enum InterceptionDecision: Sendable, Hashable {
    case pass
    case deny(String)
    /// Sends the route to a destination.
    case redirect(Destination)
    /// Sends the route to a URL, resolved as a route to it is (the redirect rules, then the
    /// patterns): its query and fragment travel with the route, as they would with that route.
    case redirectToURL(String)
}

/// Runs before every route and may let it pass, deny it or send it elsewhere. It also runs for
/// every plan (`request.isDryRun`), so a decision must change nothing: no state, no routes.
///
/// A redirected route runs every interceptor again on its new destination. A redirect to where
/// the request already goes (the same destination, and for a URL the same query and fragment)
/// counts as a pass, as go_router has it, so a guard that sends everyone to `login` lets the
/// route to `login` through. A chain that comes back to a location it saw fails as a loop
/// (`RedirectChainFailure.loop`); one that goes on past `RouterConfiguration.maxRedirects`
/// fails as too long.
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
