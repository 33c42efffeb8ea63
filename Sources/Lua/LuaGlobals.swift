import CLua
import CLuaShim

extension LuaState {
    /// The global `name` (`_G[name]`, through any metamethods a script set on `_G`).
    public func global(_ name: String) throws(LuaError) -> LuaValue {
        let L = thread
        try ensureStack(L, 4)
        let status = enterCall(on: L) { name.withCString { cluashim_pgetglobal(L, $0) } }
        try checkCall(status, on: L)
        defer { cluashim_pop(L, 1) }
        return try value(at: -1, on: L)
    }

    /// Sets the global `name` (through any metamethods a script set on `_G`).
    public func setGlobal(_ name: String, _ value: LuaValue) throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        try push(value, on: L)
        let status = enterCall(on: L) { name.withCString { cluashim_psetglobal(L, $0) } }
        try checkCall(status, on: L)
    }

    /// Like `check`, for shim operations run with the traceback message handler.
    func checkCall(_ status: CInt, on L: OpaquePointer) throws(LuaError) {
        guard status != LUA_OK else { return }
        let traceback = cluashim_lasttraceback(mainThread).map { String(cString: $0) }
        cluashim_cleartraceback(mainThread)
        throw popError(status: status, on: L, traceback: traceback)
    }
}
