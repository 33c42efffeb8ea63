import Portolan

/// Snapshots from Swift (docs/snapshots.md), each one unit of work on the host's thread.
extension PortolanHost {
    /// A snapshot of the app's state: the live tree with every kept stack, the switches'
    /// histories, the pending resume, the last routes, the app's state and the rules' identity.
    /// Throws only for what cannot be saved (a function in the state, with its path), or when no
    /// app is declared or the document would be too large.
    public func snapshot() throws(SnapshotError) -> SnapshotDocument {
        try core.snapshot()
    }

    /// The snapshot's canonical JSON bytes (`portolan-snapshot/2`).
    public func snapshotBytes() throws(SnapshotError) -> [UInt8] {
        try core.snapshot().canonicalBytes()
    }

    /// Restores a snapshot's bytes under the rules in service, whatever they are: never throws.
    /// `restored`, `migrated` with each change and why, or `refused` with the tree as it was.
    public func restore(_ bytes: [UInt8]) -> RestoreOutcome {
        core.restore(bytes)
    }

    /// Restores a document already read.
    public func restore(_ document: SnapshotDocument) -> RestoreOutcome {
        core.restore(document)
    }
}
