import Portolan

/// The router events seen while one REPL line runs, each with the step of the route it belongs to:
/// what the session shows and remembers of the routes the line ran, queued ones included.
final class RouteEventLog: Sendable {
    /// An event, and the step that asked for its route (`portolan.step`), if one did.
    struct Logged: Sendable {
        var event: RouterEvent
        var step: RouteStep?
    }

    private let state = Locked<(logging: Bool, events: [Logged])>((false, []))
    /// Events kept per line: a line that routes in a loop must not make the REPL hold every one.
    static let eventLimit = 10_000

    func start() {
        state.value = (true, [])
    }

    func record(_ event: RouterEvent, step: RouteStep?) {
        state.withLock { state in
            if state.logging, state.events.count < Self.eventLimit { state.events.append(Logged(event: event, step: step)) }
        }
    }

    /// What was seen since `start`.
    func snapshot() -> [Logged] {
        state.value.events
    }

    /// Stops logging and returns what was seen.
    func stop() -> [Logged] {
        state.withLock { state in
            defer { state = (false, []) }
            return state.events
        }
    }
}
