/// One change a restore made to what a snapshot saved, and why: the list a `migrated` outcome
/// carries. Nothing saved is dropped without one of these.
public enum SnapshotChange: Sendable, Hashable {
    /// A declared rename (`migrations[version].renamed`).
    case renamed(NodeID, to: NodeID, version: Int)
    /// A declared removal (`migrations[version].removed`), with what was below it.
    case removed(NodeID, version: Int)
    /// A declared move (`migrations[version].moved`): the node now lives under `lineage`.
    case moved(NodeID, under: [NodeID], version: Int)
    /// A context changed by the migration's `context` function.
    case contextChanged(NodeID, version: Int)
    /// A saved node the rules no longer have where it was, dropped with what was below it by the
    /// conservative rule (the longest prefix that still exists is kept).
    case dropped(NodeID, reason: String)
    /// A switch history entry or a pending destination that no longer leads anywhere.
    case forgotten(String, reason: String)
    /// A key of the app's state that the rules in service name (`portolan.initial_state`) and the
    /// saved state lacked (a restore's) or the live state lacked (a reload's): it takes its first value.
    case stateKeyAdded(String)
    /// A key of the app's state that the rules before named and the rules in service no longer
    /// do (a reload's, or a restore's of a state saved by other rules): it leaves the state.
    case stateKeyDropped(String)
    /// A key the rules change before this one dropped, which these rules name again: it comes
    /// back with the value the session had left in it (a canary's revert, an edit undone).
    case stateKeyReturned(String)
}

extension SnapshotChange: CustomStringConvertible {
    /// One line, in the words of docs/snapshots.md: `renamed old → new (version 2)`.
    public var description: String {
        switch self {
        case .renamed(let old, let new, let version):
            return "renamed '\(Excerpt.of(old))' → '\(Excerpt.of(new))' (version \(version))"
        case .removed(let id, let version):
            return "removed '\(Excerpt.of(id))' (version \(version))"
        case .moved(let id, let lineage, let version):
            return "moved '\(Excerpt.of(id))' under \(lineage.map { Excerpt.of($0) }.joined(separator: " > ")) (version \(version))"
        case .contextChanged(let id, let version):
            return "context of '\(Excerpt.of(id))' changed (version \(version))"
        case .dropped(let id, let reason):
            return "dropped '\(Excerpt.of(id))': \(reason)"
        case .forgotten(let what, let reason):
            return "forgot \(what): \(reason)"
        case .stateKeyAdded(let key):
            return "added portolan.state.\(Excerpt.of(key)) with its initial value: the rules name it, and the state had none"
        case .stateKeyDropped(let key):
            return "dropped portolan.state.\(Excerpt.of(key)): the rules no longer name it"
        case .stateKeyReturned(let key):
            return "brought back portolan.state.\(Excerpt.of(key)) with the value the last rules change dropped"
        }
    }
}
