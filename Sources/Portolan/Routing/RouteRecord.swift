/// One finished route, as `Router.history` keeps it.
public struct RouteRecord: Sendable, Equatable {
    /// Where the route was asked to go.
    public let requested: Destination
    /// Where it went after any redirect.
    public let settled: Destination
    /// What it executed (for a failed route, what ran before the failure; see `failure` for its undo).
    public let executed: [Instruction]
    /// Why it failed; nil when it reached its destination.
    public let failure: RouteFailure?
}
