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

    /// Whether a route that failed this way counts against new rules: a handler that failed or
    /// timed out, a destination that is invalid or unreachable. A guard's denial, a `can_leave`
    /// that blocks, a cancelled or duplicated request are the app working as meant.
    public static func counts(_ kind: RouteFailure.Kind) -> Bool {
        switch kind {
        case .handlerFailed, .timeout, .invalid, .unreachable: true
        case .denied, .blocked, .cancelled, .duplicated: false
        }
    }
}
