import Portolan

/// Where a snapshot's `state` comes from and goes back to: the app's state that survives reloads.
/// One host-side place, so that a snapshot, a restore and a reload agree on it.
///
/// The host keeps no state of its own until an app state is defined (issue 20 §4's
/// `portolan.state`); until then `capture` is nil and a snapshot's state is `null`. Connecting it
/// is setting both closures on the host's core (`HostCore.appState`): `capture` converts the
/// state to JSON (`AppStateValue.json(from:)` for a Lua value), `restore` puts a saved one back.
struct AppStateHook {
    var capture: (() throws(SnapshotError) -> JSONValue)?
    var restore: ((JSONValue) throws(SnapshotError) -> Void)?

    func captured() throws(SnapshotError) -> JSONValue {
        guard let capture else { return .null }
        return try capture()
    }
}
