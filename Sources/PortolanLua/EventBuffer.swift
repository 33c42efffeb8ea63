import Portolan
import Synchronization

/// Router events waiting to reach Lua observers.
///
/// The router reports events on whatever thread runs the route; Lua may only be entered from the
/// host, so events wait here and the host hands them to `portolan.on` observers at its next safe
/// point: before each handler runs, and before a script's `portolan.route` returns.
final class EventBuffer: Sendable {
    private let events = Mutex<[RouterEvent]>([])

    func append(_ event: RouterEvent) {
        events.withLock { $0.append(event) }
    }

    func takeAll() -> [RouterEvent] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }
}
