import Portolan

/// Where a snapshot's `state` comes from and goes back to: the app's state that survives reloads.
/// One host-side place, so that a snapshot, a restore and a reload agree on it.
///
/// The host's core connects it to `portolan.state` when it installs the module
/// (`HostCore.capturedAppState`, `replaceAppState(with:)`); with no capture, a snapshot's state
/// is `null`, and a `null` state restored leaves the state as it is.
struct AppStateHook {
    var capture: (() throws(SnapshotError) -> JSONValue)?
    /// Makes the state what was saved; unless `exactly`, each key the rules in service name
    /// (`portolan.initial_state`) that it lacks takes its first value. Returns those keys.
    var restore: ((_ saved: JSONValue, _ exactly: Bool) throws(SnapshotError) -> [String])?

    func captured() throws(SnapshotError) -> JSONValue {
        guard let capture else { return .null }
        return try capture()
    }
}
