/// What a restore did: the one answer of `host.restore`, `portolan.restore` and `:restore`,
/// which never throw.
public enum RestoreOutcome: Sendable, Equatable {
    /// The tree is as the snapshot saved it (then as the guards left it).
    case restored(guards: RestoreGuards)
    /// The tree is the snapshot under the rules in service, with every change and why.
    case migrated([SnapshotChange], guards: RestoreGuards)
    /// Nothing was restored, and the tree is as it was before; why.
    case refused(String)

    /// `restored`, `migrated` or `refused`: the word scenarios and tools use.
    public var name: String {
        switch self {
        case .restored: "restored"
        case .migrated: "migrated"
        case .refused: "refused"
        }
    }

    /// The changes a migration made (none for the other outcomes).
    public var changes: [SnapshotChange] {
        if case .migrated(let changes, _) = self { return changes }
        return []
    }
}

/// What the guards said when they ran again on the restored path: they let it stand, or one of
/// them sent the app elsewhere (it wins: the tree is where the redirect led). A guard that denies
/// the restored path refuses the restore.
public enum RestoreGuards: Sendable, Equatable {
    case passed
    case redirected(to: Destination)
}

extension RestoreOutcome: CustomStringConvertible {
    /// `restored`, `migrated: renamed 'a' → 'b' (version 2); …`, `refused: why`, with
    /// `, then redirected to …` when a guard sent the restored app elsewhere.
    public var description: String {
        switch self {
        case .restored(let guards):
            return "restored" + guards.suffix
        case .migrated(let changes, let guards):
            return "migrated: " + changes.map(\.description).joined(separator: "; ") + guards.suffix
        case .refused(let reason):
            return "refused: " + reason
        }
    }
}

extension RestoreGuards {
    fileprivate var suffix: String {
        switch self {
        case .passed: ""
        case .redirected(let destination): ", then a guard redirected to '\(destination)'"
        }
    }
}
