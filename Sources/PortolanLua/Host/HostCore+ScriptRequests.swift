import Lua
import Portolan

/// A script's main flow (an app file, a scenario, a REPL line) as one unit of work: the
/// `LuaRunner` runs it, and the host serves each `portolan.route`, `portolan.plan`,
/// `portolan.refresh`, `portolan.back` and `portolan.wait` it yields, on the spot.
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
        case .plan(let value):
            return plan(luaDestination: value).luaValues
        case .refresh:
            return refresh().luaValues
        case .back:
            return back().luaValues
        case .restore(let document):
            return [restore(luaDocument: document).luaValue]
        case .wait(let seconds):
            return try runner.wait(seconds: seconds, in: coroutine)
        case nil:
            // A plain coroutine.yield in a main flow: nothing to serve, carry on.
            return []
        }
    }

    private func route(luaDestination value: LuaValue, step: LuaValue) -> RouteResult {
        do {
            let step = try RouteStep(lua: step)
            switch try RouteTarget(lua: value) {
            case .destination(let destination): return route(destination, step: step)
            case .url(let url): return route(resolved: try resolve(url: url).get(), step: step)
            }
        } catch {
            return .failure(error)
        }
    }

    private func plan(luaDestination value: LuaValue) -> RouteResult {
        do {
            switch try RouteTarget(lua: value) {
            case .destination(let destination): return plan(destination)
            case .url(let url): return plan(try resolve(url: url).get().destination)
            }
        } catch {
            return .failure(error)
        }
    }
}
