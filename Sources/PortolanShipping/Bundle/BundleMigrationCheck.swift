import PortolanLua

/// Stage 6's judgement of a restore of the live state under a bundle's rules: a migration may
/// change what it must, but never lose the screen the user is on without saying so.
enum BundleMigrationCheck {
    /// Why the restore is refused, or nil. It is said so when the active screen (the last entry of
    /// `before`) is still on the restored path `after` under its id or the id a declared
    /// migration renamed it to, when a declared migration removed it or one of its ancestors, or
    /// when a guard of the new rules sent the app elsewhere; a screen dropped by the conservative
    /// rule alone is lost.
    static func rejection(before: [Entry], outcome: RestoreOutcome, after: [Entry]) -> BundleRejectionReason? {
        let guards: RestoreGuards
        switch outcome {
        case .refused(let reason): return .migrationRefused(reason)
        case .restored(let said, _): guards = said
        case .migrated(_, let said, _): guards = said
        }
        guard let screen = before.last?.id, guards == .passed else { return nil }
        var names: Set<NodeID> = [screen]
        let ancestry = Set(before.map(\.id))
        for change in outcome.changes {
            switch change {
            case .renamed(let old, let new, _) where names.contains(old): names.insert(new)
            case .removed(let id, _) where ancestry.contains(id): return nil
            default: continue
            }
        }
        if after.contains(where: { names.contains($0.id) }) { return nil }
        return .activeScreenLost(screen: screen, changes: outcome.changes.map(\.description))
    }
}
