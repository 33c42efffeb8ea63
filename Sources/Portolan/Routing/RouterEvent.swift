/// Something the router did, in the order it did it.
public enum RouterEvent: Sendable, Hashable {
    /// A route is about to run, to the destination it was asked for.
    case willRoute(Destination)
    /// An instruction ran and the tree reflects it.
    case instruction(Instruction)
    /// A route reached its destination (after any redirect) with these instructions.
    case didRoute(Destination, executed: [Instruction])
    /// A route failed; the tree reflects `failure.executed`.
    case failed(Destination, RouteFailure)
    /// The host reported a change it made itself.
    case hostReported(Instruction)
    /// A guard or an interceptor sent the route elsewhere.
    case redirected(from: Destination, to: Destination)
    /// A step of the undo of a failed route ran (the inverse of an instruction it executed).
    case rolledBack(Instruction)
}
