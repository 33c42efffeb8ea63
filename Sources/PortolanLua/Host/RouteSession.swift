import Portolan

/// What the host remembers of the routes of a session, beyond the router's tree and history.
struct RouteSession {
    /// Where a route was going when a guard redirected it with `{ resume = true }` (and by which
    /// URL); a route the user asks for (from a script or from Swift, not one queued by a handler)
    /// forgets it.
    var pendingResume: PendingResume?
    /// The destination of the route whose handler runs now, for `info.destination`.
    var currentDestination: Destination?
    /// The instruction whose handler runs now, for `info.instruction`; nil in a context task.
    var currentInstruction: Instruction?
}
