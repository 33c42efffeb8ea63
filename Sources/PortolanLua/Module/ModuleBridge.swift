import Lua
import Portolan

/// The bridge: the Swift functions the Lua half of the module calls (`bridge.*` in
/// `portolan.lua`), handed to it as its first chunk argument. Each answers with values the module
/// turns into results or errors at the script's line; none raises through Swift.
enum ModuleBridge {
    /// The bridge's table for `core`'s module. Its functions hold the core weakly: the core owns
    /// the state, and so them.
    static func table(for core: HostCore) throws(LuaError) -> LuaValue {
        let state = core.state
        var table: [LuaValue: LuaValue] = [:]
        for (name, body) in functions(of: core) {
            table[.string(name)] = try state.function(body)
        }
        // The longest wait the host accepts: the module checks it at the caller's line.
        table[.string("max_wait_seconds")] = .integer(Int64(ScriptNumbers.maxSeconds))
        // How the module raises a caller's misuse at the caller's line, even through a tail call.
        let caller = try state.callerErrorFunctions()
        table[.string("error_at_caller")] = caller.errorAtCaller
        table[.string("keep_caller")] = caller.keepCaller
        table[.string("metatable_of")] = try state.rawMetatableFunction()
        table[.string("clear_metatable")] = try state.clearMetatableFunction()
        return .table(table)
    }

    /// What a handler's `info.previous` (the entry an update replaced) and `info.under` (the
    /// screen an inserted or moved one now stands under) read from the instruction running now.
    private static func instructionEntry(_ field: String, of core: HostCore) -> LuaValue {
        switch (field, core.session.currentInstruction) {
        case ("previous", .update(let previous, _)?): previous.luaValue
        case ("under", .insert(_, let upper)?), ("under", .move(_, let upper?)?): upper.luaValue
        default: .nil
        }
    }

    private static func functions(of core: HostCore) -> [(String, ([LuaValue]) throws -> [LuaValue])] {
        [
            ("declaration", { [weak core] _ in try declarationFunctions(of: core.unwrap()) }),
            ("enqueue", { [weak core] in enqueueFromLua(try core.unwrap(), $0) }),
            ("enqueue_step", { [weak core] in enqueueStepFromLua(try core.unwrap(), $0) }),
            ("add_flow", { [weak core] in try addFlowFromLua(try core.unwrap(), $0) }),
            ("refuse", { [weak core] in refuseFromLua(try core.unwrap(), $0) }),
            ("active_path", { [weak core] _ in [.array(try currentRouter(of: core.unwrap()).activePath.map { .string($0.id) })] }),
            ("active_entries", { [weak core] _ in [.array(try currentRouter(of: core.unwrap()).activePath.map(\.luaValue))] }),
            ("back_screens", { [weak core] _ in [.array(try currentRouter(of: core.unwrap()).tree.backScreens.map(\.luaValue))] }),
            ("tree", { [weak core] _ in [.string(GraphRenderer.activeTree(try currentRouter(of: core.unwrap()).tree))] }),
            ("did_enter", { [weak core] in report(try core.unwrap(), $0) { router, args throws in try router.didEnter(Entry(lua: args[0])) } }),
            ("did_leave", { [weak core] in report(try core.unwrap(), $0) { router, args throws in try router.didLeave(Self.id(args[0])) } }),
            ("did_remove", { [weak core] in report(try core.unwrap(), $0) { router, args throws in try router.didRemove(Entry(lua: args[0])) } }),
            ("did_switch", { [weak core] in
                report(try core.unwrap(), $0) { router, args throws in try router.didSwitch(Self.id(args[0]), to: Self.id(args[1])) }
            }),
            ("reset_tabs", { [weak core] in resetTabsFromLua(try core.unwrap(), $0) }),
            ("loadfile", { [weak core] in loadFileFromLua(try core.unwrap(), $0) }),
            ("match", { [weak core] in matchFromLua(try core.unwrap(), $0) }),
            ("redirect_rule", { [weak core] in redirectRuleFromLua(try core.unwrap(), $0) }),
            ("observe", { [weak core] in
                // portolan.on checked both: an event scripts observe, and a function.
                guard $0.count == 2, let name = $0[0].stringValue.flatMap(RouterEvent.Name.init(rawValue:)),
                      name.observedBit != 0, case .function(let function) = $0[1]
                else { throw LuaError(.usage, "bridge.observe(event, fn)") }
                try core.unwrap().app.rules.observers.add(function, of: name)
                return []
            }),
            ("find", { [weak core] in findFromLua(try core.unwrap(), $0) }),
            ("switch_destination", { [weak core] in switchDestinationFromLua(try core.unwrap(), $0) }),
            ("history", { [weak core] _ in [.array(try currentRouter(of: core.unwrap()).history.map(\.luaValue))] }),
            ("pending", { [weak core] _ in [try core.unwrap().session.pendingResume?.destination.luaValue ?? .nil] }),
            ("resume", { [weak core] _ in resumeFromLua(try core.unwrap()) }),
            ("intercepting", { [weak core] _ in try core.unwrap().app.rules.hasInterceptors = true; return [] }),
            ("destination", { [weak core] _ in
                let core = try core.unwrap()
                let path = try currentRouter(of: core).activePath
                return [core.session.currentDestination.map { .array($0.entries(from: path).map(\.luaValue)) } ?? .nil]
            }),
            ("instruction", { [weak core] _ in [try core.unwrap().session.currentInstruction.map { .string($0.description) } ?? .nil] }),
            ("previous", { [weak core] _ in [instructionEntry("previous", of: try core.unwrap())] }),
            ("under", { [weak core] _ in [instructionEntry("under", of: try core.unwrap())] }),
            ("step", { [weak core] _ in [try core.unwrap().router?.runningStep?.luaValue ?? .nil] }),
            ("snapshot", { [weak core] _ in
                do {
                    let bytes = try core.unwrap().snapshot().canonicalBytes()
                    return [.boolean(true), .string(String(decoding: bytes, as: UTF8.self))]
                } catch let error as SnapshotError {
                    return [.boolean(false), .string(error.reason)]
                }
            }),
            ("write", { [weak core] in
                try core.unwrap().observers.output($0.first?.stringValue ?? "")
                return []
            }),
        ]
    }

    /// `declaration()`: the two functions of one `portolan.app` call, `emit(node fields…)` for each
    /// checked node and `declare(anywhere_count, options)` at the end, over one `DeclarationBuilder`.
    private static func declarationFunctions(of core: HostCore) throws -> [LuaValue] {
        let builder = DeclarationBuilder()
        let emit = try core.state.function { (_: LuaState, arguments: [LuaValue]) -> [LuaValue] in
            builder.add(arguments)
            return []
        }
        let declare = try core.state.function { [weak core] (_: LuaState, arguments: [LuaValue]) -> [LuaValue] in
            declareFromLua(try core.unwrap(), builder, arguments)
        }
        return [emit, declare]
    }

    private static func declareFromLua(_ core: HostCore, _ builder: DeclarationBuilder, _ arguments: [LuaValue]) -> [LuaValue] {
        do {
            let options = try AppOptions(lua: arguments.count > 1 ? arguments[1] : .nil)
            let anywhere = (arguments.first?.intValue).flatMap { Int(exactly: $0) } ?? -1
            try core.declare(try builder.finish(anywhere: anywhere, options: options), options: options)
            return [.boolean(true)]
        } catch let error as DeclarationError {
            return [.boolean(false), .string(error.message)]
        } catch let error as HostError {
            return [.boolean(false), .string(error.message)]
        } catch {
            return [.boolean(false), .string("\(error)")]
        }
    }

    /// A route asked for from inside a route: queued, or false and why. A value that names no
    /// destination is refused as a request (the router already refused what `enqueue` throws).
    private static func enqueueFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        let target: RouteTarget, step: RouteStep?
        do {
            target = try RouteTarget(lua: arguments.first ?? .nil)
            step = try RouteStep(lua: arguments.count > 1 ? arguments[1] : .nil)
        } catch {
            return [.boolean(false), core.refuse(error).luaFields]
        }
        do {
            try core.enqueue(target, step: step)
            return [.boolean(true)]
        } catch {
            return [.boolean(false), error.luaFields]
        }
    }

    /// `enqueue_step(name, payload)` from inside a route: true and where the step goes once queued;
    /// false and the error's fields when no flow takes it, or the router refuses it.
    private static func enqueueStepFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        do {
            let step = try RouteStep(luaName: arguments.first ?? .nil, payload: arguments.count > 1 ? arguments[1] : .nil)
            return [.boolean(true), try core.enqueue(step)]
        } catch {
            return [.boolean(false), error.luaFields]
        }
    }

    /// `add_flow(index, name, steps, adapts)`: a flow Flows.lua checked and keeps, for the engine.
    private static func addFlowFromLua(_ core: HostCore, _ arguments: [LuaValue]) throws -> [LuaValue] {
        guard arguments.count == 4, case .integer(let index) = arguments[0], let name = arguments[1].stringValue,
              case .boolean(let adapts) = arguments[3]
        else { throw LuaError(.usage, "bridge.add_flow(index, name, steps, adapts)") }
        let steps = (arguments[2].arrayValue ?? []).compactMap(\.stringValue)
        core.addFlow(LuaFlow(index: Int(index), name: name, steps: steps, adaptsSteps: adapts))
        return []
    }

    /// `refuse(message)`: a route request the module could not hand over (a destination that
    /// cannot cross to Swift), told of as a refused request; its error's fields.
    private static func refuseFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        [core.refuse(RouteFailure(.invalid, arguments.first?.stringValue ?? "an invalid destination")).luaFields]
    }

    /// `portolan.resume()` from inside a route: nothing when none is pending; true and where it
    /// goes once queued; false and the error's fields when the router refuses it (a duplicate).
    private static func resumeFromLua(_ core: HostCore) -> [LuaValue] {
        do {
            guard let destination = try core.enqueueResume() else { return [] }
            return [.boolean(true), destination.luaValue]
        } catch {
            return [.boolean(false), error.luaFields]
        }
    }

    private static func matchFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        if case .bytes? = arguments.first {
            return [.boolean(false), RouteFailure(.invalid, "malformed URL: it is not valid UTF-8").luaFields]
        }
        do {
            _ = try core.requireRouter()   // no app yet: the error says so
            let url = arguments.first?.stringValue ?? ""
            switch core.resolve(url: url) {
            case .success(let resolution): return [.boolean(true), resolution.luaValue]
            case .failure(let failure): return [.boolean(false), failure.luaFields]
            }
        } catch {
            return [.boolean(false), error.luaFields]
        }
    }

    /// `find(id, context, nth)`: the live path to the node (a list of entries), or nil; false and
    /// an error's fields when the arguments are wrong.
    private static func findFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        do {
            let router = try core.requireRouter()
            let wanted = try Entry(lua: .table([.string("id"): arguments.first ?? .nil, .string("context"): arguments.count > 1 ? arguments[1] : .nil]))
            let occurrence = arguments.count > 2 ? arguments[2].intValue.flatMap { Int(exactly: $0) } : nil
            let path = router.tree.livePath(
                to: wanted.id, context: arguments.count > 1 && arguments[1] != .nil ? wanted.context : nil, occurrence: occurrence)
            return [.boolean(true), path.map { .array($0.map(\.luaValue)) } ?? .nil]
        } catch {
            return [.boolean(false), error.luaFields]
        }
    }

    /// `switch_destination(switch_id, child_id)`: where a tab tap leads (the child's kept stack).
    private static func switchDestinationFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        do {
            let router = try core.requireRouter()
            let switchID = arguments.first?.stringValue ?? "", childID = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
            return [.boolean(true), try router.tree.destination(switching: switchID, to: childID).luaValue]
        } catch {
            // A tab tap that leads nowhere is a request refused.
            return [.boolean(false), core.refuse(error).luaFields]
        }
    }

    /// `reset_tabs(switch_id)`: true and the entries dropped, or false and why.
    private static func resetTabsFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        do {
            let dropped = try currentRouter(of: core).resetTabs(of: arguments.first?.stringValue)
            return [.boolean(true), .array(dropped.map(\.luaValue))]
        } catch {
            return [.boolean(false), .string("\(error)")]
        }
    }

    /// `redirect_rule(pattern, template)` or `redirect_rule(function)`: true, or false and why.
    private static func redirectRuleFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        if case .function? = arguments.first {
            try? core.addRedirectRule(.function(HostLuaFunction(arguments[0])))   // a function rule cannot be invalid
            return [.boolean(true)]
        }
        let pattern = arguments.first?.stringValue ?? ""
        let template = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
        do {
            try core.addRedirectRule(.pattern(from: pattern, to: template))
            return [.boolean(true)]
        } catch {
            return [.boolean(false), .string("redirect rule '\(pattern)' is invalid: \(error)")]
        }
    }

    private static func loadFileFromLua(_ core: HostCore, _ arguments: [LuaValue]) -> [LuaValue] {
        guard let path = arguments.first?.stringValue else { return [.nil, "portolan.load expects a file path"] }
        do {
            return [try core.files.loadNamedByScript(path)]
        } catch {
            return [.nil, .string(error.message)]
        }
    }

    /// A host report: `true`, or `false` and why (the module raises it at the script's line).
    private static func report(_ core: HostCore, _ arguments: [LuaValue], _ change: (Router, [LuaValue]) throws -> Void) -> [LuaValue] {
        let padded = arguments + [LuaValue](repeating: .nil, count: max(0, 2 - arguments.count))
        do {
            try change(try currentRouter(of: core), padded)
            return [.boolean(true)]
        } catch let failure as RouteFailure {
            return [.boolean(false), .string(failure.message)]
        } catch {
            return [.boolean(false), .string("\(error)")]
        }
    }

    private static func currentRouter(of core: HostCore) throws(HostError) -> Router {
        do {
            return try core.requireRouter()
        } catch {
            throw HostError(error.message)
        }
    }

    private static func id(_ value: LuaValue) throws(RouteFailure) -> NodeID {
        guard case .string(let id) = value else {
            throw RouteFailure(.invalid, "expected a node id (a string), got a \(value.typeName)")
        }
        return id
    }
}

extension Optional where Wrapped == HostCore {
    /// The core, or an error when Lua outlives it (it cannot: the core owns the state).
    func unwrap() throws(HostError) -> HostCore {
        guard let self else { throw HostError("the Portolan host is gone") }
        return self
    }
}
