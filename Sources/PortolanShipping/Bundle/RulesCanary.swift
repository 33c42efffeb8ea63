import Portolan
import PortolanLua

/// The watch over the first routes after a rules swap (docs/bundles.md, stage 8): it counts the
/// routes the app asked for that end (`did_route` or `failed`; those the rules queue themselves
/// say nothing of what the user met), and the failures that count against the rules
/// (`CanaryPolicy.counted`, and a redirect when `countsRedirects`). Once more have failed than
/// `maximumFailureRatio` of `routes` allows,
/// the verdict is in, however many routes are left: the rules are reverted between two routes.
/// Once `routes` have ended within the allowance, the rules passed. The host hands it every event
/// on its thread, and reverts the swap when it asks (`RulesSwapWatch`).
struct RulesCanary: RulesSwapWatch {
    let routes: Int
    /// How many failures the ratio allows over `routes`.
    let allowedFailures: Int
    /// The ways of failing that count.
    let counted: Set<RouteFailure.Kind>
    let countsRedirects: Bool
    /// Called once it watches, in the swap's unit.
    let announceStart: @Sendable () -> Void
    /// Told the verdict, on the host's thread: after a revert, for a failure.
    let report: @Sendable (CanaryReport) -> Void
    private var ended = 0
    private var failures: [CanaryFailure] = []
    /// The redirect of the route running now, if the rules made one: (asked for, sent to).
    private var redirect: (from: Destination, to: Destination)?

    init(policy: CanaryPolicy, began: @escaping @Sendable () -> Void, report: @escaping @Sendable (CanaryReport) -> Void) {
        routes = policy.routes
        // The ratio is a number from 0 to 1 (`CanaryPolicy` keeps it so), and so is the product.
        let allowance = (Double(routes) * policy.maximumFailureRatio).rounded(.down)
        allowedFailures = allowance.isFinite ? Int(allowance) : routes
        counted = policy.counted
        countsRedirects = policy.countsRedirects
        announceStart = began
        self.report = report
    }

    func began() { announceStart() }

    func superseded() { report(.superseded(routes: ended)) }

    func reverted(problem: String?) { report(.reverted(failures, revertError: problem)) }

    /// Counts `event` when it ends a route the app asked for (`origin`: the running route's, nil
    /// between routes). A pass is reported at once; a failure once the host has reverted the swap.
    mutating func watch(_ event: RouterEvent, origin: RouteOrigin?) -> RulesSwapWatchDecision {
        if origin == .rules { return .watching }
        // A request refused while a route runs (a duplicate, a full queue) was made inside that
        // route, by the rules: counted, refusals would pad the canary with routes no user took.
        if case .failed(_, let failure) = event, failure.stage == .request, origin != nil { return .watching }
        switch event {
        case .redirected(let from, let to):
            // The first redirect names what the user asked for; the last, where the route went.
            redirect = (redirect?.from ?? from, to)
            return .watching
        case .didRoute:
            ended += 1
            if countsRedirects, let redirect {
                failures.append(CanaryFailure(route: redirect.from.description, redirectedTo: redirect.to.description))
            }
            redirect = nil
        case .failed(let destination, let failure):
            ended += 1
            redirect = nil
            if counted.contains(failure.kind) {
                failures.append(CanaryFailure(route: destination.requestText(failure: failure), kind: failure.kind, message: failure.message))
            }
        default:
            return .watching
        }
        if failures.count > allowedFailures { return .revert }
        guard ended >= routes else { return .watching }
        report(.passed(routes: ended))
        return .ended
    }
}

/// What a canary told its installer: the rules passed, failed and were reverted, or were replaced
/// by another swap before a verdict.
enum CanaryReport: Sendable {
    case passed(routes: Int)
    /// Other rules were swapped in while it watched, after `routes` routes: no verdict, so the
    /// rules neither became known good nor were quarantined.
    case superseded(routes: Int)
    /// The failing routes, and the revert's error when it could not go back (nil: reverted).
    case reverted([CanaryFailure], revertError: String?)
}
