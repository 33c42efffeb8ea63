/// Thrown by a handler whose wait was cut by a cancellation or an interrupt; the route fails as
/// `cancelled`.
public struct RouteStopped: Error, CustomStringConvertible, Sendable {
    public let message: String

    /// `location`: where the handler waited (`app.lua:12`), when known.
    public init(_ reason: WaitStop, at location: String? = nil) {
        let prefix = location.map { "\($0): " } ?? ""
        switch reason {
        case .cancelled: message = prefix + "the route was cancelled while a handler waited"
        case .interrupted: message = prefix + "interrupted while a handler waited"
        case .timedOut: message = prefix + "the handler's time ran out"
        }
    }

    public var description: String { message }
}
