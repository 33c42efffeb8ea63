import CLua
import CLuaShim

// Errors a library written in Lua raises for its caller's misuse, at the caller's line
// (CallerErrors.c): Lua's own `error(message, 2)` names a line of the library when the library was
// reached by a tail call, since Lua then drops the caller's frame.

extension LuaState {
    /// Names the state's library chunk: errors raised with ``callerErrorFunctions()``'s
    /// `error_at_caller`, and those a Swift function raises, are placed at the first frame outside
    /// the chunk named `chunkName` and its parts (`chunkName.part`), and outside the wrappers
    /// `keep_caller` makes.
    public func setLibraryChunk(_ chunkName: String) throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        try check(chunkName.withCString { cluashim_psetlibrarychunk(L, $0) }, on: L)
    }

    /// `error_at_caller(message)`, which raises a string at the caller's line outside the library,
    /// and `keep_caller(fn)`, which wraps `fn` in a C function that keeps its caller's frame on the
    /// stack when it is called in tail position, for the library to hand scripts.
    public func callerErrorFunctions() throws(LuaError) -> (errorAtCaller: LuaValue, keepCaller: LuaValue) {
        let L = thread
        try ensureStack(L, 4)
        try check(cluashim_ppushcallerfunctions(L), on: L)
        defer { cluashim_pop(L, 2) }
        return (try value(at: -2, on: L), try value(at: -1, on: L))
    }
}
