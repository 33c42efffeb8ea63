import Lua
import Portolan

/// Router events, handed to the script's `portolan.on` observers the moment they happen: the
/// router reports them on the host's thread, between two steps of the route, so observers run
/// in the route's order and a route they queue runs after the current one.
extension HostCore {
    /// Whether `deliver` has anyone to hand an event to: while not, the router builds none. The
    /// script's observers are asked first: when a script observes, that is the answer, read from
    /// one object, without taking the host's streams' lock.
    var hasEventListeners: Bool {
        app.rules.observers.observedEvents != 0 || !observers.events.isEmpty || swapWatch != nil || eventStreams.isListenedTo
    }

    func deliver(_ event: RouterEvent) {
        if !observers.events.isEmpty {
            let step = router?.runningStep
            for observer in observers.events {
                observer(event, step)
            }
        }
        eventStreams.emit(event)
        if swapWatch != nil { watchSwap(event) }
        // Most apps observe nothing: then nothing more is asked than one bit. The script's
        // observers are taken once, with the bit, and read in place from there; the event is
        // looked into once (each switch over it copied it).
        let scriptObservers = app.rules.observers
        guard scriptObservers.observedEvents != 0 else { return }
        switch event {
        case .instruction(let instruction):
            deliverText(of: instruction, as: .instruction, to: scriptObservers)
        case .rolledBack(let instruction):
            deliverText(of: instruction, as: .rolledBack, to: scriptObservers)
        default:
            let name = event.name
            guard scriptObservers.observes(name) else { return }
            // The step that asked for the route travels with its events (the last argument).
            let step: [LuaValue] = event.carriesStep ? [router?.runningStep?.luaValue ?? .nil] : []
            callObservers(scriptObservers, of: name, passing: (Self.luaArguments(of: event) + step).map(LuaArgument.value))
        }
    }

    /// Hands the observers of `name` an instruction's text: pinned, each observer goes to Lua with
    /// it in one C call, without converting or pushing from Swift, and no array is made.
    private func deliverText(of instruction: Instruction, as name: RouterEvent.Name, to scriptObservers: ScriptObservers) {
        guard scriptObservers.observes(name) else { return }
        let text = instructionTexts.text(of: instruction, in: state)
        guard case .reference(let pinned) = text else { return callObservers(scriptObservers, of: name, passing: [text]) }
        callObservers(scriptObservers, of: name) { observer throws(LuaError) in
            try state.call(observer, with: pinned)
        }
    }

    private func callObservers(_ scriptObservers: ScriptObservers, of name: RouterEvent.Name, passing arguments: [LuaArgument]) {
        callObservers(scriptObservers, of: name) { observer throws(LuaError) in
            _ = try state.call(.function(observer), passing: arguments)
        }
    }

    /// Calls each observer of `name` directly, one protected call each under the handlers' budget,
    /// and says which failed. Read by position, so that one an observer adds meanwhile is called too.
    private func callObservers(
        _ scriptObservers: ScriptObservers, of name: RouterEvent.Name, _ call: (LuaReference) throws(LuaError) -> Void
    ) {
        state.withInstructionBudget(configuration.handlerInstructionBudget) {
            var position = 0
            while let observer = scriptObservers.observer(of: name, at: position) {
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
        case .treeCarried(let changes):
            // Each change in the words of a restore's report: what a script's log or UI shows.
            return [.array(changes.map { .string($0.description) })]
        }
    }
}
