import Lua

/// The functions of the Lua half of the module that the host calls.
struct ModuleFunctions {
    let runScript: LuaValue
    let runAndShow: LuaValue
    let runHandler: LuaValue
    let runInterceptors: LuaValue
    let runGuard: LuaValue
    let takeRules: LuaValue
    let show: LuaValue
    let runFlow: LuaValue
    let adaptStep: LuaValue
    let stateForSnapshot: LuaValue
    let restoreState: LuaValue
    let carryStateKeys: LuaValue
    let stateKeysNamed: LuaValue

    init(_ table: LuaValue) throws(HostError) {
        func function(_ name: String) throws(HostError) -> LuaValue {
            let value = table[.string(name)]
            guard case .function = value else { throw HostError("the portolan module lacks host.\(name)") }
            return value
        }
        runScript = try function("run_script")
        runAndShow = try function("run_and_show")
        runHandler = try function("run_handler")
        runInterceptors = try function("run_interceptors")
        runGuard = try function("run_guard")
        takeRules = try function("take_rules")
        show = try function("show")
        runFlow = try function("run_flow")
        adaptStep = try function("adapt_step")
        stateForSnapshot = try function("state_for_snapshot")
        restoreState = try function("restore_state")
        carryStateKeys = try function("carry_state_keys")
        stateKeysNamed = try function("state_keys_named")
    }
}

/// A yield the host serves: `coroutine.yield(MARK, verb, argument)` from the module.
enum ModuleRequest {
    /// A route, and the step that asked for it, or nil.
    case route(LuaValue, step: LuaValue)
    /// `portolan.step(name, payload)`: a step for the engine's flows to resolve.
    case step(LuaValue, payload: LuaValue)
    case plan(LuaValue)
    case refresh
    /// `portolan.back()`, or with a distance: `{ screens = n }` or `{ keep = k }`.
    case back(LuaValue)
    /// `portolan.resume()`: the pending resume's route, by its URL when it came from one.
    case resume
    case restore(LuaValue)
    case wait(seconds: Double)

    static let mark = "\u{0}portolan"

    init?(_ values: [LuaValue]) {
        guard values.count >= 2, values[0] == .string(Self.mark), case .string(let verb) = values[1] else { return nil }
        let argument = values.count > 2 ? values[2] : .nil
        switch verb {
        case "route": self = .route(argument, step: values.count > 3 ? values[3] : .nil)
        case "step": self = .step(argument, payload: values.count > 3 ? values[3] : .nil)
        case "plan": self = .plan(argument)
        case "refresh": self = .refresh
        case "back": self = .back(argument)
        case "resume": self = .resume
        case "restore": self = .restore(argument)
        case "wait":
            guard let seconds = argument.doubleValue else { return nil }
            self = .wait(seconds: seconds)
        default: return nil
        }
    }
}
