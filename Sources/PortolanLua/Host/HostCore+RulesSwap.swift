import Lua
import Portolan

/// A live swap of the rules (docs/bundles.md, stage 7), and the canary's revert, each inside one
/// unit of work on the host's thread, so that no route sees two versions of the rules: the one
/// rules change (`RulesReload`), a reload's transaction, with the gate's acceptance. When anything
/// fails, everything the swap set aside comes back.
extension HostCore {
    /// Swaps in `source`, carrying the live state to it as a reload does; `accept` judges what that
    /// did, as a restore's outcome, with the active path before and after it (nil: keep it; a
    /// reason: undo the swap). Returns that outcome (nil when no app was declared: no state to
    /// carry). `lenient`: what a restore refuses (a newer version's state, an incompatible
    /// migration) is carried by the conservative rule alone (a revert to older rules) instead of
    /// being refused.
    func swapRules(
        to source: AppRules, lenient: Bool = false, accept: (RestoreOutcome, _ before: [Entry], _ after: [Entry]) -> String?
    ) throws(HostError) -> RestoreOutcome? {
        let before = router?.activePath
        return try RulesReload.swap(in: self, source, then: { (carried, carry) throws(HostError) -> RestoreOutcome? in
            guard let before else { return nil }
            let outcome = Self.outcome(of: carried, carry, refusal: lenient ? nil : carry.restoreRefusal, settled: router?.history.last?.settled)
            if let refusal = accept(outcome, before, router?.activePath ?? []) { throw HostError(refusal) }
            return outcome
        })
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

    /// Counts `event` for the canary watching the rules swapped in, if any; when its verdict is
    /// in, the canary ends, and a failure reverts the rules as the next job on the host's thread,
    /// after the route that decided it.
    func watchCanary(_ event: RouterEvent) {
        guard let canary, let verdict = canary.record(event) else { return }
        self.canary = nil
        switch verdict {
        case .passed(let routes):
            canary.report(.passed(routes: routes))
        case .failed(let failures):
            let revertTo = canary.revertTo, report = canary.report
            thread.submit { [self] in
                report(.reverted(failures, revertError: revert(to: revertTo)))
            }
        }
    }

    /// Goes back to `source`, carrying the tree to it leniently (whatever the carry says: the
    /// previous rules are what must serve). The error, when it could not.
    private func revert(to source: AppRules?) -> String? {
        guard let source else { return "no rules were in service before the swap: there is nothing to go back to" }
        do {
            _ = try swapRules(to: source, lenient: true) { _, _, _ in nil }
            return nil
        } catch {
            return error.message
        }
    }
}
