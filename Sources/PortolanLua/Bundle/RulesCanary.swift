import Portolan

/// The watch over the first routes after a rules swap (docs/bundles.md, stage 8): it counts the
/// routes the app asked for that end (`did_route` or `failed`; those the rules queue themselves
/// say nothing of what the user met), and the failures that count against the rules
/// (`CanaryPolicy.counted`, and a redirect when `countsRedirects`). Once more have failed than
/// `maximumFailureRatio` of `routes` allows,
/// the verdict is in, however many routes are left: the rules are reverted between two routes.
/// Once `routes` have ended within the allowance, the rules passed. Used on the host's thread only.
final class RulesCanary {
    /// What the canary concluded.
    enum Verdict {
        case passed(routes: Int)
        case failed([CanaryFailure])
    }

    let routes: Int
    /// How many failures the ratio allows over `routes`.
    let allowedFailures: Int
    /// The ways of failing that count.
    let counted: Set<RouteFailure.Kind>
    let countsRedirects: Bool
    /// The swap it watches, whose `revert` goes back to the rules before when the verdict is `failed`.
    let swap: RulesReload
    /// Told the verdict, on the host's thread: after a revert, for a failure.
    let report: @Sendable (CanaryReport) -> Void
    private var ended = 0
    private var failures: [CanaryFailure] = []
    /// The redirect of the route running now, if the rules made one: (asked for, sent to).
    private var redirect: (from: Destination, to: Destination)?

    /// How many routes have ended since the swap.
    var endedRoutes: Int { ended }

    init(policy: CanaryPolicy, swap: RulesReload, report: @escaping @Sendable (CanaryReport) -> Void) {
        routes = policy.routes
        // The ratio is a number from 0 to 1 (`CanaryPolicy` keeps it so), and so is the product.
        let allowance = (Double(routes) * policy.maximumFailureRatio).rounded(.down)
        allowedFailures = allowance.isFinite ? Int(allowance) : routes
        counted = policy.counted
        countsRedirects = policy.countsRedirects
        self.swap = swap
        self.report = report
    }

    /// Counts `event` when it ends a route the app asked for (`origin`: the running route's, nil
    /// between routes); the verdict once it is decided, else nil.
    func record(_ event: RouterEvent, origin: RouteOrigin?) -> Verdict? {
        if origin == .rules { return nil }
        // A request refused while a route runs (a duplicate, a full queue) was made inside that
        // route, by the rules: counted, refusals would pad the canary with routes no user took.
        if case .failed(_, let failure) = event, failure.stage == .request, origin != nil { return nil }
        switch event {
        case .redirected(let from, let to):
            // The first redirect names what the user asked for; the last, where the route went.
            redirect = (redirect?.from ?? from, to)
            return nil
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
            return nil
        }
        if failures.count > allowedFailures { return .failed(failures) }
        return ended >= routes ? .passed(routes: ended) : nil
    }
}

/// What a canary told its installer: the rules passed, failed and were reverted, or were replaced
/// by another swap before a verdict.
package enum CanaryReport: Sendable {
    case passed(routes: Int)
    /// Other rules were swapped in while it watched, after `routes` routes: no verdict, so the
    /// rules neither became known good nor were quarantined.
    case superseded(routes: Int)
    /// The failing routes, and the revert's error when it could not go back (nil: reverted).
    case reverted([CanaryFailure], revertError: String?)
}
