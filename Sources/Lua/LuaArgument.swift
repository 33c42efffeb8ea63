import CLua
import CLuaShim

/// An argument of a call into Lua: a value converted as ``LuaValue``s are, or a value the
/// registry already holds, pushed by reference.
///
/// A string pushed as a value is hashed and looked up in Lua's string table on every call, under
/// a protected call since it may allocate; one pinned once with ``LuaState/pin(_:)`` and pushed
/// by reference costs a registry read and allocates nothing. Hot paths (a handler's node id, its
/// field) hand over references; everything else goes as values.
public enum LuaArgument {
    case value(LuaValue)
    case reference(LuaReference)
}

extension LuaState {
    /// A registry reference to `value`, for pushing it again and again without converting it:
    /// ``LuaArgument/reference(_:)``. Released when the last Swift owner lets go.
    public func pin(_ value: LuaValue) throws(LuaError) -> LuaReference {
        let L = thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try push(value, on: L)
        return try reference(at: -1, on: L)
    }

    /// Pushes each argument; on failure nothing is left pushed. References and values that
    /// allocate nothing go straight onto the stack in one pass; as soon as one would allocate, all
    /// go together under one protected call instead (``LuaValueEncoding``).
    func push(_ arguments: [LuaArgument], on L: OpaquePointer) throws(LuaError) {
        try ensureStack(L, arguments.count + 4)
        let top = lua_gettop(L)
        do {
            for argument in arguments {
                switch argument {
                case .reference(let reference), .value(.function(let reference)), .value(.userdata(let reference)),
                     .value(.thread(let reference)):
                    try pushReference(reference, on: L)
                case .value(.nil): lua_pushnil(L)
                case .value(.boolean(let flag)): lua_pushboolean(L, flag ? 1 : 0)
                case .value(.integer(let integer)): lua_pushinteger(L, lua_Integer(integer))
                case .value(.number(let number)): lua_pushnumber(L, number)
                case .value(.string), .value(.bytes), .value(.table):
                    lua_settop(L, top)
                    return try push(encoding: LuaValueEncoding(arguments, state: self), count: arguments.count, on: L)
                }
            }
        } catch {
            lua_settop(L, top)
            throw error
        }
    }
}
