#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Portolan

/// The live swap of the rules a rules bundle's gate ends with (docs/bundles.md, stages 7 and 8),
/// for the gate in PortolanTools (`host.install(bundle:publicKey:options:)`).
extension PortolanHost {
    /// What a swap did: the restore of the state under the new rules (nil when no app was
    /// declared), and how long the host's thread, and with it the route queue, was held.
    package struct RulesSwapped: Sendable {
        package let restore: RestoreOutcome?
        package let pause: Duration
    }

    /// How a canary is to watch the routes after a swap, and whom it tells its verdict.
    package struct CanaryWatch: Sendable {
        /// The app's policy, tightened by the manifest.
        package let policy: CanaryPolicy
        /// Called in the swap's unit once the canary watches, before any route can end.
        package let started: @Sendable () -> Void
        package let report: @Sendable (CanaryReport) -> Void

        package init(policy: CanaryPolicy, started: @escaping @Sendable () -> Void, report: @escaping @Sendable (CanaryReport) -> Void) {
            self.policy = policy
            self.started = started
            self.report = report
        }
    }

    /// Swaps in the rules `source` between two routes, in one unit of work: the one rules change a
    /// reload is (the new rules loaded, the live state carried to them, their guards asked), judged
    /// by `accept` as a restore's outcome (a reason undoes it all), then, when `canary` is given, a canary that reverts to the rules
    /// in service now. On failure the rules in service, the tree and `portolan.state` stay.
    package func swapRules(
        to source: AppRules, canary: CanaryWatch?, accept: @Sendable (RestoreOutcome, _ before: [Entry], _ after: [Entry]) -> String?
    ) -> Result<RulesSwapped, HostError> {
        let clock = ContinuousClock()
        let start = clock.now, startCPU = Self.threadCPUTime()
        do {
            let (restore, committed) = try core.swapRules(to: source, accept: accept)
            // Rules swapped in while a canary watched the ones before end its watch undecided: they
            // are what a failure of the new rules goes back to, but they never earned a verdict, so
            // bad rules followed by any others do not become known good.
            if let superseded = core.canary {
                core.canary = nil
                superseded.report(.superseded(routes: superseded.endedRoutes))
            }
            if let canary {
                canary.started()
                core.canary = RulesCanary(policy: canary.policy, swap: committed, report: canary.report)
                if canary.policy.routes == 0, let report = core.canary?.report {
                    core.canary = nil
                    report(.passed(routes: 0))
                }
            }
            let pause = clock.now - start
            core.lastRulesSwapPause = pause
            core.lastRulesSwapCPUTime = Self.threadCPUTime() - startCPU
            return .success(RulesSwapped(restore: restore, pause: pause))
        } catch {
            return .failure(error)
        }
    }

    /// How long the last swap of the rules by `install` held
    /// the host's thread, and with it the route queue: its snapshot, load and restore. Nil before one.
    public var lastRulesSwapPause: Duration? { core.lastRulesSwapPause }

    /// The CPU time the host's thread spent in that swap: the pause without the time other threads
    /// and processes had the cores (what the swap itself costs on a busy machine).
    public var lastRulesSwapCPUTime: Duration? { core.lastRulesSwapCPUTime }

    /// The CPU time the calling thread has used.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether a canary is watching the routes now.
    package var isCanaryWatching: Bool { core.canary != nil }
}
