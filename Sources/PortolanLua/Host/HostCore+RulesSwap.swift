import Lua
import Portolan

/// A live swap of the rules (docs/bundles.md, stage 7), and the canary's revert, each inside one
/// unit of work on the host's thread, so that no route sees two versions of the rules: a snapshot
/// of the state under the rules in service, the new rules loaded (`RulesReload.swap`), the
/// snapshot restored under them. When anything fails, everything the swap set aside comes back.
extension HostCore {
    /// Swaps in `source`, restoring the live state under it; `accept` judges the restore's
    /// outcome, with the active path before and after it (nil: keep it; a reason: undo the swap).
    /// Returns the restore's outcome (nil when no app was declared: no state to carry).
    /// `forgetVersion`: the snapshot is taken as the new rules' own version (a revert to older
    /// rules, which would refuse a snapshot of newer ones).
    func swapRules(
        to source: RulesSource, forgetVersion: Bool = false, accept: (RestoreOutcome, _ before: [Entry], _ after: [Entry]) -> String?
    ) throws(HostError) -> RestoreOutcome? {
        var document: SnapshotDocument?
        let before = router?.activePath ?? []
        if router != nil {
            do {
                document = try snapshot()
            } catch {
                throw HostError("cannot take a snapshot of the state to carry: \(error.reason)")
            }
        }
        // The transaction owns what the swap changes (the files, the rules in service, the pending
        // resume): whatever fails puts everything back.
        return try RulesReload.swap(in: self, from: source, { () throws(HostError) -> LuaValue in
            switch source {
            case .file(let path):
                try files.startAfresh(in: FilePaths.directory(of: path))
                return try files.load(path)
            case .source(let text, let chunkName):
                try files.startAfresh(in: nil)
                return try loadChunk(text, chunkName: chunkName)
            }
        }, then: { () throws(HostError) -> RestoreOutcome? in
            guard var document else { return nil }
            if forgetVersion { document.rules = RulesIdentity(version: app.rulesVersion, hash: document.rules.hash) }
            let outcome = restore(document)
            if let refusal = accept(outcome, before, router?.activePath ?? []) { throw HostError(refusal) }
            return outcome
        })
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

    /// Goes back to `source`, carrying the tree by snapshot and restore under it (whatever the
    /// restore says: the previous rules are what must serve). The error, when it could not.
    private func revert(to source: RulesSource?) -> String? {
        guard let source else { return "no rules were in service before the swap: there is nothing to go back to" }
        do {
            _ = try swapRules(to: source, forgetVersion: true) { _, _, _ in nil }
            return nil
        } catch {
            return error.message
        }
    }
}
