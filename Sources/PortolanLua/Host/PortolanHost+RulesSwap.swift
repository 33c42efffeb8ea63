#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Portolan

/// The live swap of the rules a rules bundle's gate ends with (docs/bundles.md, stages 7 and 8),
/// for the updater in PortolanShipping (`RulesUpdater`).
extension PortolanHost {
    /// What a swap did: the restore of the state under the new rules (nil when no app was
    /// declared), how long the host's thread, and with it the route queue, was held, and the CPU
    /// time the thread spent in it (the pause without the time other threads and processes had
    /// the cores: what the swap itself costs on a busy machine).
    package struct RulesSwapped: Sendable {
        package let restore: RestoreOutcome?
        package let pause: Duration
        package let cpuTime: Duration
    }

    /// Swaps in the rules `source` between two routes, in one unit of work: the one rules change a
    /// reload is (the new rules loaded, the live state carried to them, their guards asked), judged
    /// by `accept` as a restore's outcome (a reason undoes it all); then `watch`, when given,
    /// watches the routes after it and may have it reverted to the rules in service now. On
    /// failure the rules in service, the tree and `portolan.state` stay.
    package func swapRules(
        to source: AppRules, watch: (any RulesSwapWatch)?, accept: @Sendable (RestoreOutcome, _ before: [Entry], _ after: [Entry]) -> String?
    ) -> Result<RulesSwapped, HostError> {
        let clock = ContinuousClock()
        let start = clock.now, startCPU = Self.threadCPUTime()
        do {
            let (restore, committed) = try core.swapRules(to: source, accept: accept)
            // Rules swapped in while a watch lasted end it undecided: they are what a failure of
            // the new rules goes back to, but they never earned a verdict, so bad rules followed by
            // any others do not become known good.
            if let superseded = core.swapWatch {
                core.swapWatch = nil
                superseded.watch.superseded()
            }
            if let watch {
                watch.began()
                core.swapWatch = WatchedSwap(watch: watch, swap: committed)
            }
            return .success(RulesSwapped(restore: restore, pause: clock.now - start, cpuTime: Self.threadCPUTime() - startCPU))
        } catch {
            return .failure(error)
        }
    }

    /// The CPU time the calling thread has used.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Whether a watch (a bundle's canary) is watching the routes now.
    package var isSwapWatched: Bool { core.swapWatch != nil }
}
