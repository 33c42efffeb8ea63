import Lua
import Portolan

/// Router events, handed to the script's `portolan.on` observers the moment they happen: the
/// router reports them on the host's thread, between two steps of the route, so observers run
/// in the route's order and a route they queue runs after the current one.
extension HostCore {
    /// Whether `deliver` has anyone to hand an event to: while not, the router builds none.
    var hasEventListeners: Bool {
        !observers.events.isEmpty || eventStreams.isListenedTo || canary != nil || app.rules.observedEvents != 0
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
        // Most apps observe nothing: then nothing more is asked than one bit.
        let name = event.name
        guard app.rules.observes(name) else { return }
        let arguments: [LuaArgument]
        switch event {
        case .instruction(let instruction), .rolledBack(let instruction):
            // A pinned string: nothing converted, no protected push, and no array either.
            let text = instructionTexts.text(of: instruction, in: state)
            if case .reference(let pinned) = text { return callObservers(of: name, with: pinned) }
            arguments = [text]
        default:
            // The step that asked for the route travels with its events (the last argument).
            let step: [LuaValue] = event.carriesStep ? [router?.runningStep?.luaValue ?? .nil] : []
            arguments = (Self.luaArguments(of: event) + step).map(LuaArgument.value)
        }
        callObservers(of: name, passing: arguments)
    }

    private func callObservers(of name: RouterEvent.Name, passing arguments: [LuaArgument]) {
        callObservers(of: name) { observer throws(LuaError) in try state.call(observer, passing: arguments) }
    }

    /// The observers of an event whose one argument is pinned (an instruction's text): an observer
    /// that is a function goes with it to Lua in one C call, without converting or pushing from Swift.
    private func callObservers(of name: RouterEvent.Name, with pinned: LuaReference) {
        callObservers(of: name) { observer throws(LuaError) in
            if case .function(let function) = observer {
                try state.call(function, with: pinned)
            } else {
                try state.call(observer, passing: [.reference(pinned)])
            }
        }
    }

    /// Calls each observer of `name` directly, one protected call each under the handlers' budget,
    /// and says which failed. Read by position, so that one an observer adds meanwhile is called too.
    private func callObservers(of name: RouterEvent.Name, _ call: (LuaValue) throws(LuaError) -> Void) {
        state.withInstructionBudget(configuration.handlerInstructionBudget) {
            var position = 0
            while let observer = app.rules.observer(of: name, at: position) {
                position += 1
                do throws(LuaError) {
                    try call(observer)
                } catch {
                    observers.output("observer of \(name.rawValue) failed: \(error.message)")
                }
            }
        }
    }

    private static func luaArguments(of event: RouterEvent) -> [LuaValue] {
        switch event {
        case .willRoute(let destination):
            return [destination.luaValue]
        case .didRoute(let destination, let executed):
            return [executed.luaValue, destination.luaValue]
        case .failed(let destination, let failure):
            return [failure.luaFields, destination.luaValue]
        case .instruction, .rolledBack, .hostReported:
            return []
        case .redirected(let from, let to):
            return [to.luaValue, from.luaValue]
        }
    }
}
