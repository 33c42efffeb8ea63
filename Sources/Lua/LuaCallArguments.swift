import CLua
import CLuaShim

/// A call's arguments, pushed one at a time straight onto the Lua thread that will run them
/// (``LuaCoroutine/start(_:count:pushing:)``): no array of them is built, and a reference, an
/// integer or a flag is one C call, with no conversion and no allocation.
///
/// A value that allocates (a string, a table) is built on the calling thread under a protected
/// call, since the thread that will run cannot run one, then moved over.
public struct LuaCallArguments {
    let state: LuaState
    /// The thread that runs the call: what allocates nothing goes straight there.
    let thread: OpaquePointer
    /// The thread making the call, where a value that allocates is built.
    let caller: OpaquePointer

    /// A value the registry holds (``LuaState/pin(_:)``), pushed by reference.
    public func push(_ reference: LuaReference) throws(LuaError) {
        try state.pushReference(reference, on: thread)
    }

    public func push(_ integer: Int64) {
        lua_pushinteger(thread, lua_Integer(integer))
    }

    public func push(_ flag: Bool) {
        lua_pushboolean(thread, flag ? 1 : 0)
    }

    public func pushNil() {
        lua_pushnil(thread)
    }

    /// One value, converted as ``LuaValue``s are.
    public func push(_ value: LuaValue) throws(LuaError) {
        guard value.pushesWithoutAllocating else { return try push([value]) }
        try state.push(value, on: thread)   // a plain C call: no protected call on the thread
    }

    /// Values converted as ``LuaValue``s are: those that allocate all together under one
    /// protected call. On failure none is left pushed.
    public func push(_ values: [LuaValue]) throws(LuaError) {
        let top = lua_gettop(caller)
        defer { lua_settop(caller, top) }
        try state.push(values, on: caller)
        lua_xmove(caller, thread, CInt(values.count))   // room was made for them: `start`'s count
    }
}
