import Portolan
import Synchronization

/// Router events waiting to reach Lua observers.
///
/// The router reports events on whatever thread runs the route; Lua may only be entered from the
/// host, so events wait here and the host hands them to `portolan.on` observers at its next safe
/// point: before each handler runs, and before a script's `portolan.route` returns.
///
/// Only events some observer waits for are kept: turning one into Lua values costs more than the
/// route step that caused it.
final class EventBuffer: Sendable {
    private let state = Mutex<(events: [RouterEvent], observed: Set<String>)>(([], []))

    /// From now on, keep events with this Lua name (`instruction`, `did_route` …).
    func observe(_ name: String) {
        state.withLock { _ = $0.observed.insert(name) }
    }

    /// The names observed now; set back after a failed reload.
    var observed: Set<String> {
        get { state.withLock { $0.observed } }
        set { state.withLock { $0.observed = newValue } }
    }

    func append(_ event: RouterEvent) {
        guard let name = event.luaName else { return }
        state.withLock { state in
            if state.observed.contains(name) { state.events.append(event) }
        }
    }

    func takeAll() -> [RouterEvent] {
        state.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }
}

extension RouterEvent {
    /// The name `portolan.on` knows the event by; nil for events Lua does not observe.
    var luaName: String? {
        switch self {
        case .willRoute: "will_route"
        case .instruction: "instruction"
        case .didRoute: "did_route"
        case .failed: "failed"
        case .hostReported: nil
        }
    }
}
