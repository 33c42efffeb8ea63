import Lua
import Portolan

/// A flow a script declared (`portolan.flow`), as the host knows it: Flows.lua keeps its functions,
/// by `index`; the engine asks it as a `Flow` whose callbacks call them.
struct LuaFlow {
    let index: Int
    let name: String
    let steps: [String]
    let adaptsSteps: Bool
}

/// Steps and flows through the engine: a script's flows become the router's `Flow`s, ahead of
/// those added from Swift, and `portolan.step` asks the router where a step leads.
extension HostCore {
    /// Gives `router` the script's flows, then the Swift ones, in that order.
    func installFlows(on router: Router) {
        router.setFlows(app.rules.flows.map(flow) + app.swiftFlows)
    }

    /// A flow from Swift, asked after the script's.
    func addFlow(_ flow: Flow) {
        app.swiftFlows.append(flow)
        if let router { installFlows(on: router) }
    }

    /// A flow the script declared; it goes to the router in service unless a reload is running.
    func addFlow(_ declared: LuaFlow) {
        app.rules.flows.append(declared)
        if app.rulesReachRouter, let router { installFlows(on: router) }
    }

    /// The engine's flow for a script's: each callback runs as a handler does, within its time
    /// limit and instruction budget, on the host's thread. Weak: a router may outlive its host.
    private func flow(_ declared: LuaFlow) -> Flow {
        let index = Int64(declared.index)
        let adapt: (@Sendable (RouteStep) throws -> StepAdaptation)? = declared.adaptsSteps
            ? { @Sendable [weak self] step in try self?.adapt(step, by: .integer(index)) ?? .keep } : nil
        return Flow(name: declared.name, steps: declared.steps, adapt: adapt) { [weak self] step in
            try self?.target(of: step, by: .integer(index))
        }
    }

    private func target(of step: RouteStep, by flow: LuaValue) throws -> RouteTarget? {
        let values = try runner.runHandler(try flowFunction(\.runFlow), [flow, .string(step.name), step.payloadTable])
        guard let value = values.first, value != .nil else { return nil }
        return try RouteTarget(lua: value)
    }

    private func adapt(_ step: RouteStep, by flow: LuaValue) throws -> StepAdaptation {
        let values = try runner.runHandler(try flowFunction(\.adaptStep), [flow, .string(step.name), step.payloadTable])
        switch values.first?.stringValue {
        case "refuse":
            return .refuse
        case "step":
            return .step(try RouteStep(luaName: values.count > 1 ? values[1] : .nil, payload: values.count > 2 ? values[2] : .nil))
        default:
            return .keep
        }
    }

    /// One of the module's flow callbacks, which run only on the host's thread.
    private func flowFunction(_ function: KeyPath<ModuleFunctions, LuaValue>) throws -> LuaValue {
        guard thread.isCurrent else {
            throw HostError("a flow written in Lua runs on its host's thread: step with the host's step(_:)")
        }
        return try module[keyPath: function]
    }

    // MARK: Stepping

    /// A script's `portolan.step(name, payload)`: a value that names no step is refused as a request.
    func step(luaName name: LuaValue, payload: LuaValue) -> RouteResult {
        do {
            return step(try RouteStep(luaName: name, payload: payload))
        } catch {
            return .failure(refuse(error))
        }
    }

    /// Routes to where the flows send `step`, the step travelling with the route, as a route to
    /// that destination or URL from Lua or from Swift goes; a step that leads nowhere is refused.
    func step(_ step: RouteStep) -> RouteResult {
        let router: Router
        do { router = try requireRouter() } catch { return .failure(error) }
        switch router.resolve(step: step) {
        case .failure(let failure): return .failure(refuse(failure))
        case .success((.destination(let destination), let adapted)): return route(destination, step: adapted)
        case .success((.url(let url), let adapted)): return route(url: url, step: adapted)
        }
    }

    /// What `step(_:)` would do, decided without doing it (`Router.planNow(step:)`).
    func plan(step: RouteStep) -> RoutePlan {
        do {
            return try requireRouter().planNow(step: step)
        } catch {
            return RoutePlan(requested: .path([]), result: .failure(error))
        }
    }

    /// Queues a route to where the flows send `step`, from inside a route; returns where it goes,
    /// as Lua shows it. A step that leads nowhere is refused, and thrown.
    func enqueue(_ step: RouteStep) throws(RouteFailure) -> LuaValue {
        switch try requireRouter().resolve(step: step) {
        case .failure(let failure):
            throw refuse(failure)
        case .success((let target, let adapted)):
            try enqueue(target, step: adapted)
            switch target {
            case .destination(let destination): return destination.luaValue
            case .url(let url): return .string(url)
            }
        }
    }
}
