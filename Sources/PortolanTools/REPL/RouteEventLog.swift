import Portolan

/// The router events seen while one REPL line runs: what the session shows and remembers of the
/// routes the line ran, queued ones included.
final class RouteEventLog: Sendable {
    private let state = Locked<(logging: Bool, events: [RouterEvent])>((false, []))

    func start() {
        state.value = (true, [])
    }

    func record(_ event: RouterEvent) {
        state.withLock { state in
            if state.logging { state.events.append(event) }
        }
    }

    /// What was seen since `start`.
    func snapshot() -> [RouterEvent] {
        state.value.events
    }

    /// Stops logging and returns what was seen.
    func stop() -> [RouterEvent] {
        state.withLock { state in
            defer { state = (false, []) }
            return state.events
        }
    }
}
