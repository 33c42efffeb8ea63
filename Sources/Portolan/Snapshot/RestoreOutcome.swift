/// What a restore did: the one answer of `host.restore`, `portolan.restore` and `:restore`,
/// which never throw.
public enum RestoreOutcome: Sendable, Equatable {
    /// The tree is as the snapshot saved it (then as the guards left it), with what the restore
    /// noticed on the way (`RestoreNote`).
    case restored(guards: RestoreGuards, notes: [RestoreNote] = [])
    /// The tree is the snapshot under the rules in service, with every change and why.
    case migrated([SnapshotChange], guards: RestoreGuards, notes: [RestoreNote] = [])
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
        if case .migrated(let changes, _, _) = self { return changes }
        return []
    }

    /// This outcome with `more` changes after its own: a `restored` one becomes `migrated` when
    /// there are any. A refusal stays as it is.
    public func adding(_ more: [SnapshotChange]) -> RestoreOutcome {
        guard !more.isEmpty else { return self }
        switch self {
        case .restored(let guards, let notes): return .migrated(more, guards: guards, notes: notes)
        case .migrated(let changes, let guards, let notes): return .migrated(changes + more, guards: guards, notes: notes)
        case .refused: return self
        }
    }

    /// What the restore noticed besides its changes (none for a refusal).
    public var notes: [RestoreNote] {
        switch self {
        case .restored(_, let notes), .migrated(_, _, let notes): notes
        case .refused: []
        }
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
    /// `, then redirected to …` when a guard sent the restored app elsewhere, and `; note: …` for
    /// each note.
    public var description: String {
        let notes = notes.map { "; note: \($0)" }.joined()
        switch self {
        case .restored(let guards, _):
            return "restored" + guards.suffix + notes
        case .migrated(let changes, let guards, _):
            return "migrated: " + changes.map(\.description).joined(separator: "; ") + guards.suffix + notes
        case .refused(let reason):
            return "refused: " + reason
        }
    }
}

extension RestoreGuards {
    /// Why the guards' route, run again on the restored path, refuses a restore (or a swap): a
    /// denial in the words both give, any other failure as it says itself.
    public static func refusal(_ failure: RouteFailure) -> String {
        failure.kind == .denied ? "a guard denies the restored path: \(failure.message)" : failure.message
    }

    fileprivate var suffix: String {
        switch self {
        case .passed: ""
        case .redirected(let destination): ", then a guard redirected to '\(destination)'"
        }
    }
}
