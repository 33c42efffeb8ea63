import Lua
import Portolan

/// Router events, handed to the script's `portolan.on` observers the moment they happen: the
/// router reports them on the host's thread, between two steps of the route, so observers run
/// in the route's order and a route they queue runs after the current one.
extension HostCore {
    /// Whether `deliver` has anyone to hand an event to: while not, the router builds none.
    var hasEventListeners: Bool {
        !observers.events.isEmpty || eventStreams.isListenedTo || canary != nil || !app.rules.observedEvents.isEmpty
    }

    func deliver(_ event: RouterEvent) {
        if !observers.events.isEmpty {
            let step = router?.runningStep
            for observer in observers.events {
                observer(event, step)
            }
        }
        eventStreams.emit(event)
        if canary != nil { watchCanary(event) }
        // Most apps observe nothing: then no name is looked up.
        guard !app.rules.observedEvents.isEmpty, let name = event.luaName, app.rules.observedEvents.contains(name),
              let emit = installed?.functions.emit else { return }
        // The step that asked for the route travels with its events (the last argument).
        let step = router?.runningStep?.luaValue ?? .nil
        let arguments = [.string(name)] + Self.luaArguments(of: event) + (event.carriesStep ? [step] : [])
        do {
            let failures = try state.withInstructionBudget(configuration.handlerInstructionBudget) { () throws(LuaError) in
                try state.call(emit, arguments)
            }
            for failure in failures.first?.arrayValue ?? [] {
                observers.output("observer of \(name) failed: \(failure.stringValue ?? "\(failure)")")
            }
        } catch {
            observers.output("observer of \(name) failed: \(error.message)")
        }
    }

    private static func luaArguments(of event: RouterEvent) -> [LuaValue] {
        switch event {
        case .willRoute(let destination):
            return [destination.luaValue]
        case .instruction(let instruction):
            return [.string(instruction.description)]
        case .didRoute(let destination, let executed):
            return [executed.luaValue, destination.luaValue]
        case .failed(let destination, let failure):
            return [failure.luaFields, destination.luaValue]
        case .hostReported:
            return []
        case .redirected(let from, let to):
            return [to.luaValue, from.luaValue]
        case .rolledBack(let instruction):
            return [.string(instruction.description)]
        }
    }
}
