/// What a restore that went through has to say besides the changes it made: not a change to the
/// saved state, but something about it the app's developers should know. `restored` and
/// `migrated` outcomes carry these; a refusal has its reason instead.
public enum RestoreNote: Sendable, Equatable {
    /// The snapshot was written by rules that declare the same `version` as the rules in service
    /// but whose files hash differently: the rules changed without a version bump, so no
    /// migration can have said what changed. The restore still went through (what no longer fits
    /// was resolved by the conservative rule and reported); bump `version` and declare a migration.
    case rulesChangedWithoutVersionBump(version: Int, savedHash: String, runningHash: String)

    /// The notes for a snapshot written by `saved` restored under `running`; none when either
    /// hash is unknown (empty).
    public static func comparing(_ saved: RulesIdentity, with running: RulesIdentity) -> [RestoreNote] {
        guard saved.version == running.version, !saved.hash.isEmpty, !running.hash.isEmpty, saved.hash != running.hash else {
            return []
        }
        return [.rulesChangedWithoutVersionBump(version: saved.version, savedHash: saved.hash, runningHash: running.hash)]
    }
}

extension RestoreNote: CustomStringConvertible {
    /// One line, in the words of docs/snapshots.md.
    public var description: String {
        switch self {
        case .rulesChangedWithoutVersionBump(let version, let saved, let running):
            return "the rules changed without a version bump: the snapshot was written by version \(version) "
                + "with files \(Excerpt.of(saved)), and the rules in service are version \(version) with files "
                + "\(Excerpt.of(running)); bump 'version' and declare what changed in 'migrations'"
        }
    }
}
