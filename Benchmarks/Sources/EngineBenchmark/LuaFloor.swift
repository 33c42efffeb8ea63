import BenchmarkSupport
import CLuaFloor

/// The floor the engine is held to: one bare `lua_pcall` from C of the smallest handler that does
/// anything, `h = function() n = n + 1 end`. A route that costs less per instruction than this
/// costs less than calling any Lua handler for it would.
enum LuaFloor {
    /// Calls per timed operation, so that the timer's own cost per operation is not the floor's.
    static let callsPerOperation = 100

    /// Nanoseconds per call, or nil when Lua could not be set up.
    static func measure(_ bench: Bench, name: String) -> Double? {
        guard let L = luaL_newstate() else { return nil }
        defer { lua_close(L) }
        let source = "n = 0; h = function() n = n + 1 end; return h"
        guard luaL_loadstring(L, source) == LUA_OK, lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK else { return nil }
        // `h` stays on top of the stack; each call pushes a copy and pcall pops it.
        var failures = 0
        let measurement = bench.measure(name) {
            var statuses = 0
            for _ in 0..<callsPerOperation {
                statuses &+= Int(cluafloor_call_top(L))
            }
            failures &+= statuses
            return statuses
        }
        // Every call must have succeeded and counted, or the figure is not the floor.
        lua_getglobal(L, "n")
        let calls = lua_tointegerx(L, -1, nil)
        guard failures == 0, calls > 0 else { return nil }
        return measurement.nanoseconds / Double(callsPerOperation)
    }
}
