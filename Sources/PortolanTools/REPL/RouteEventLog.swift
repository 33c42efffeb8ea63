import Portolan
import PortolanShipping

/// The router events seen while one REPL line runs, each with the step of the route it belongs to:
/// what the session shows and remembers of the routes the line ran, queued ones included.
final class RouteEventLog: Sendable {
    /// An event, and the step that asked for its route (`portolan.step`), if one did.
    struct Logged: Sendable {
        var event: RouterEvent
        var step: RouteStep?
    }

    private let state = Locked<(logging: Bool, events: [Logged], bytes: Int)>((false, [], 0))
    /// Events kept per line: a line that routes in a loop must not make the REPL hold every one.
    static let eventLimit = 10_000
    /// The most bytes (`HeldBytes`) the events kept per line may hold: each carries its
    /// destinations' contexts, which a script may make as large as its memory cap. 64 MiB keeps
    /// thousands of ordinary routes; past it, later events of the line are not kept.
    static let byteLimit = 64 << 20

    func start() {
        state.withLock { $0 = (true, [], 0) }
    }

    func record(_ event: RouterEvent, step: RouteStep?) {
        let size = event.heldBytes + (step?.heldBytes ?? 0)
        state.withLock { state in
            guard state.logging, state.events.count < Self.eventLimit, state.bytes + size <= Self.byteLimit else { return }
            state.events.append(Logged(event: event, step: step))
            state.bytes += size
        }
    }

    /// What was seen since `start`.
    func snapshot() -> [Logged] {
        state.value.events
    }

    /// Stops logging and returns what was seen.
    func stop() -> [Logged] {
        state.withLock { state in
            defer { state = (false, [], 0) }
            return state.events
        }
    }
}

extension RouteReport {
    /// The routes the events tell of, in order: the one asked for, then any queued meanwhile.
    static func reports(from events: [RouteEventLog.Logged]) -> [RouteReport] {
        var reports: [RouteReport] = []
        for logged in events { fold(logged.event, step: logged.step, into: &reports) }
        return reports
    }
}
