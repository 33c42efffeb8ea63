/// Where a route goes.
public enum Destination: Hashable, Sendable {
    /// A list of entries from the root (Portus's static destination).
    case path([Entry])
    /// A node declared reachable from anywhere, entered on top of the active leaf (Portus's
    /// dynamic destination: an alert, a login sheet).
    case anywhere(Entry)

    /// A path of ids without context.
    public static func ids(_ ids: NodeID...) -> Destination {
        .path(ids.map { Entry($0) })
    }
}

extension Destination: CustomStringConvertible {
    public var description: String {
        switch self {
        case .path(let entries):
            return entries.map(\.description).joined(separator: " > ")
        case .anywhere(let entry):
            return "anywhere \(entry)"
        }
    }
}

extension Destination {
    /// How a request's destination reads where a request refused before it became a route may
    /// have had none (an empty path): the destination, else the URL it named (`failure.url`),
    /// else `(nothing)`.
    public func requestText(failure: RouteFailure?) -> String {
        guard self == .path([]) else { return description }
        return failure?.url ?? "(nothing)"
    }
}
