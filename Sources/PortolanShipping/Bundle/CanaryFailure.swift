import Portolan

/// A route that failed while a canary watched the rules swapped in: the route by name (the URL
/// it was asked for, or its destination), how it failed, and why.
public struct CanaryFailure: Sendable, Equatable, CustomStringConvertible {
    /// The URL the route was asked for when it had one, else its destination (`root/tabs/movie`).
    public let route: String
    /// How it failed; nil for a route the rules sent elsewhere (`redirectedTo`).
    public let kind: RouteFailure.Kind?
    /// Where the rules' guards or interceptors sent it, when they did instead of where it asked.
    public let redirectedTo: String?
    public let message: String

    public init(route: String, kind: RouteFailure.Kind, message: String) {
        self.route = route
        self.kind = kind
        self.redirectedTo = nil
        self.message = message
    }

    /// A route the rules sent elsewhere: `route` asked for, `destination` where it went.
    public init(route: String, redirectedTo destination: String) {
        self.route = route
        self.kind = nil
        self.redirectedTo = destination
        self.message = "redirected to \(destination)"
    }

    /// `route (kind): message`, or `route (redirected): redirected to …`, one line.
    public var description: String { "\(route) (\(kind.map { "\($0)" } ?? "redirected")): \(message)" }
}
