import CLua
import CLuaShim

extension LuaState {
    /// Calls a Lua value (a function, or anything with `__call`) in protected mode and returns all its results.
    ///
    /// Errors come back as ``LuaError`` with a traceback; the instruction budget applies when this is a
    /// top-level call. Callable from inside a Swift function that Lua called (it then shares that call's budget).
    @discardableResult
    public func call(_ function: LuaValue, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        try call(function, passing: arguments.map(LuaArgument.value))
    }

    /// ``call(_:_:)`` with arguments that may be references (pinned strings): when all of them are
    /// references or values that allocate nothing, nothing is converted and no protected push runs.
    @discardableResult
    public func call(_ function: LuaValue, passing arguments: [LuaArgument]) throws(LuaError) -> [LuaValue] {
        let L = thread
        let top = lua_gettop(L)
        try ensureStack(L, arguments.count + 6)
        try push(function, on: L)
        do {
            try push(arguments, on: L)
        } catch {
            lua_settop(L, top)
            throw error
        }
        try protectedCall(on: L, argumentCount: arguments.count, resultCount: cluashim_multret())
        defer { lua_settop(L, top) }
        return try values(from: top + 1, on: L)
    }

    @discardableResult
    public func call(_ function: LuaValue, _ arguments: LuaValue...) throws(LuaError) -> [LuaValue] {
        try call(function, arguments)
    }

    /// Calls the global function `name`.
    @discardableResult
    public func call(global name: String, _ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        try call(global(name), arguments)
    }
}
