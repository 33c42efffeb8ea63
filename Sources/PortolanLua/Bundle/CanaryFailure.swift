import Portolan

/// A route that failed while a canary watched the rules swapped in: the route by name (the URL
/// it was asked for, or its destination), how it failed, and why.
public struct CanaryFailure: Sendable, Equatable, CustomStringConvertible {
    /// The URL the route was asked for when it had one, else its destination (`root/tabs/movie`).
    public let route: String
    public let kind: RouteFailure.Kind
    public let message: String

    public init(route: String, kind: RouteFailure.Kind, message: String) {
        self.route = route
        self.kind = kind
        self.message = message
    }

    /// `route (kind): message`, one line.
    public var description: String { "\(route) (\(kind)): \(message)" }
}
