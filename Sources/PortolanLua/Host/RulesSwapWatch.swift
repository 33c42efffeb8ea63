import Portolan

/// What watches the routes after a rules swap, and may have it undone: a rules bundle's canary
/// (PortolanShipping's `RulesCanary`). The host knows nothing of bundles, their policy or their
/// store: while a watch lasts it keeps the swap's transaction (`RulesReload`) open, hands the watch
/// every router event as it happens, and, when the watch asks, reverts the swap as the next job on
/// its thread, after the route that decided it. Used on the host's thread only.
package protocol RulesSwapWatch: Sendable {
    /// Called in the swap's unit once it has committed, before any route can end.
    func began()
    /// One router event, with the origin of the route running (nil between routes).
    mutating func watch(_ event: RouterEvent, origin: RouteOrigin?) -> RulesSwapWatchDecision
    /// Other rules were swapped in before the watch decided: the watch ends, and these rules are
    /// what the next swap's revert goes back to.
    func superseded()
    /// The revert the watch asked for has run: nil when everything the swap set aside came back,
    /// else what did not, and what serves now.
    func reverted(problem: String?)
}

/// What a watch made of an event.
package enum RulesSwapWatchDecision: Sendable {
    /// It goes on watching.
    case watching
    /// It has ended and the rules stay.
    case ended
    /// It has ended, and the swap is to be undone.
    case revert
}
