import Lua
import Portolan

/// A live swap of the rules (docs/bundles.md, stage 7), and the canary's revert, each inside one
/// unit of work on the host's thread, so that no route sees two versions of the rules: the one
/// rules change (`RulesReload`), a reload's transaction, with the gate's acceptance. When anything
/// fails, everything the swap set aside comes back.
extension HostCore {
    /// Swaps in `source`, carrying the live state to it as a reload does; `accept` judges what that
    /// did, as a restore's outcome, with the active path before and after it (nil: keep it; a
    /// reason: undo the swap); what a restore refuses (a newer version's state, an incompatible
    /// migration) is refused. Returns that outcome (nil when no app was declared: no state to
    /// carry) and the committed swap, whose `revert` puts back what it replaced.
    func swapRules(
        to source: AppRules, accept: (RestoreOutcome, _ before: [Entry], _ after: [Entry]) -> String?
    ) throws(HostError) -> (outcome: RestoreOutcome?, committed: RulesReload) {
        let before = router?.activePath
        let swapped = try RulesReload.swap(in: self, source, then: { (carried, carry) throws(HostError) -> RestoreOutcome? in
            guard let before else { return nil }
            let outcome = Self.outcome(of: carried, carry, refusal: carry.restoreRefusal, settled: router?.history.last?.settled)
            if let refusal = accept(outcome, before, router?.activePath ?? []) { throw HostError(refusal) }
            return outcome
        })
        return (swapped.value, swapped.committed)
    }

    /// What a rules change did, in a restore's words, as the gate judges a restore: refused (what
    /// a restore refuses, or a guard that denies the path), or restored or migrated, with what
    /// the guards made of the path.
    private static func outcome(
        of carried: ReloadResult, _ carry: AppSlot.Carry, refusal: String?, settled: Destination?
    ) -> RestoreOutcome {
        if let refusal { return .refused(refusal) }
        let guards: RestoreGuards
        switch carried.refresh {
        case .success(let instructions) where instructions.isEmpty:
            guards = .passed
        case .success:
            guards = .redirected(to: settled ?? .path([]))
        case .failure(let failure):
            return .refused("\(failure.kind.rawValue): \(RestoreGuards.refusal(failure))")
        }
        return RestoreOutcome.restored(guards: guards, notes: carry.notes).adding(carried.changes)
    }

    /// Hands `event` to the watch over the rules swapped in, if any: when it has ended, it goes;
    /// when it asks for a revert, the swap is undone (`RulesReload.revert`) as the next job on the
    /// host's thread, after the route that decided it.
    func watchSwap(_ event: RouterEvent) {
        // Through the optional, so the watch is changed in place rather than copied out and back.
        let origin = router?.runningOrigin
        guard let decision = swapWatch?.watch.watch(event, origin: origin) else { return }
        switch decision {
        case .watching:
            return
        case .ended:
            swapWatch = nil
        case .revert:
            revertAsked = swapWatch
            swapWatch = nil
            thread.submit { [self] in revertWatchedSwap() }
        }
    }

    private func revertWatchedSwap() {
        guard let asked = revertAsked else { return }
        revertAsked = nil
        asked.watch.reverted(problem: asked.swap.revert(in: self))
    }
}

/// A committed swap and the watch that may have it undone (`HostCore.swapWatch`).
///
/// A class: the host asks whether there is one on every event (`hasEventListeners`), and asking
/// that of an optional struct this large copied the whole swap and destroyed the copy, about 300
/// instructions of every route's instruction (Benchmarks/README.md, "Targets").
final class WatchedSwap {
    var watch: any RulesSwapWatch
    let swap: RulesReload

    init(watch: any RulesSwapWatch, swap: RulesReload) {
        self.watch = watch
        self.swap = swap
    }
}
