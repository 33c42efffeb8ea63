import Lua
import Portolan

/// A script's main flow (an app file, a scenario, a REPL line) as one unit of work: the
/// `LuaRunner` runs it, and the host serves each `portolan.route`, `portolan.plan`,
/// `portolan.step`, `portolan.refresh`, `portolan.back`, `portolan.resume` and `portolan.wait` it yields, on the spot.
extension HostCore {
    /// Runs `function(arguments…)` as a main flow and returns what it returns. Routes queued
    /// outside any route (from a plain coroutine, say) run before this returns.
    func drive(_ function: LuaValue, _ arguments: [LuaValue]) throws(HostError) -> [LuaValue] {
        defer { router?.drainQueue() }
        return try runner.drive(function, arguments, in: try module.runScript) { (request, coroutine) throws(HostError) in
            try serve(request, in: coroutine)
        }
    }

    private func serve(_ request: ModuleRequest?, in coroutine: LuaCoroutine) throws(HostError) -> [LuaValue] {
        switch request {
        case .route(let value, let step):
            return route(luaDestination: value, step: step).luaValues
        case .step(let name, let payload):
            return step(luaName: name, payload: payload).luaValues
        case .plan(let value):
            return plan(luaDestination: value).luaValues
        case .refresh:
            return refresh().luaValues
        case .back(let distance):
            return back(luaDistance: distance).luaValues
        case .resume:
            return resume()?.luaValues ?? []
        case .restore(let document):
            return [restore(luaDocument: document).luaValue]
        case .wait(let seconds):
            return try runner.wait(seconds: seconds, in: coroutine)
        case nil:
            // A plain coroutine.yield in a main flow: nothing to serve, carry on.
            return []
        }
    }

    /// A script's `portolan.route`: a value that names no destination is refused as a request.
    private func route(luaDestination value: LuaValue, step: LuaValue) -> RouteResult {
        let target: RouteTarget, routeStep: RouteStep?
        do {
            routeStep = try RouteStep(lua: step)
            target = try RouteTarget(lua: value)
        } catch {
            return .failure(refuse(error))
        }
        switch target {
        case .destination(let destination): return route(destination, step: routeStep)
        case .url(let url): return route(url: url, step: routeStep)
        }
    }

    private func plan(luaDestination value: LuaValue) -> RoutePlan {
        do {
            switch try RouteTarget(lua: value) {
            case .destination(let destination): return plan(destination)
            case .url(let url): return plan(url: url)
            }
        } catch {
            return RoutePlan(requested: .path([]), result: .failure(error))
        }
    }
}
