import CLua
import CLuaShim

/// A Lua thread of the state's own on which Swift makes plain protected calls, one after another:
/// what a host runs its handlers on. A call costs what a `lua_pcall` does: no resume, no restart,
/// no status to keep, and the thread is ready again as soon as the call returns, whether it
/// returned or raised. Code it runs cannot yield (Lua refuses at the `coroutine.yield`), so a host
/// waits in place instead (``LuaCallStop`` ends such a wait).
///
/// `coroutine.running()` in the code it runs answers this thread, so a module can tell the calls
/// a host makes on it from a script's own coroutines. Like ``LuaReference``, it does not keep its
/// state alive.
public final class LuaCallThread {
    weak var state: LuaState?
    /// Keeps the Lua thread alive (threads are collectable objects).
    let threadReference: LuaReference
    let thread: OpaquePointer

    /// A new thread of `state`, with the state's count hook.
    public init(in state: LuaState) throws(LuaError) {
        let L = state.thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try state.ensureStack(L, 4)
        if state.callDepth == 0 { state.drainUnreferences() }
        try state.check(cluashim_pnewthread(L), on: L)
        guard let thread = lua_tothread(L, -1) else { throw LuaError(.usage, "lua_newthread gave no thread") }
        self.thread = thread
        self.state = state
        threadReference = try state.reference(at: -1, on: L)
        cluashim_sethook(thread)   // hooks are per thread; never rely on inheritance for the budget
    }

    /// Whether a call may start on the thread: nothing runs on it and nothing is left on it. A script
    /// that got hold of the thread (`coroutine.running()`) may have resumed it as a coroutine of its
    /// own since; such a thread is not used again.
    public var isIdle: Bool {
        var frame = lua_Debug()
        return lua_status(thread) == LUA_OK && lua_gettop(thread) == 0 && lua_getstack(thread, 0, &frame) == 0
    }

    /// Calls `function(arguments…)` on this thread in protected mode and returns its results.
    /// Errors come back as ``LuaError`` with a traceback; the instruction budget applies when this
    /// is a top-level call (nothing else running), as for ``LuaState/call(_:_:)``.
    public func call(_ function: LuaValue, passing arguments: [LuaArgument]) throws(LuaError) -> [LuaValue] {
        guard let state else { throw LuaError(.usage, "the Lua state of this thread is closed") }
        let L = thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try state.ensureStack(L, arguments.count + 6)
        try state.push(function, on: L)
        try state.push(arguments, on: L)
        try state.protectedCall(on: L, argumentCount: arguments.count, resultCount: cluashim_multret())
        return try state.values(from: top + 1, on: L)
    }

    /// The Lua functions on the thread's stack, innermost first, as `source:line`: where the call
    /// running on it is.
    public var luaFrames: [String] {
        LuaState.luaFrames(of: thread)
    }
}
