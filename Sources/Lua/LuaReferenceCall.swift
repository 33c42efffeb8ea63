import CLua
import CLuaShim

extension LuaState {
    /// Calls the value `function` refers to with the one `argument` the registry holds (or none),
    /// its results dropped: one C call pushes both and calls (`cluashim_pcallref`), so nothing is
    /// converted, no array is made and nothing crosses into Swift per argument. For the host's
    /// hot paths that call a pinned function with pinned values (an observer of every instruction
    /// with the instruction's text); errors are those of ``call(_:passing:)``.
    public func call(_ function: LuaReference, with argument: LuaReference?) throws(LuaError) {
        try checkOwns(function)
        if let argument { try checkOwns(argument) }
        let L = thread
        try ensureStack(L, 3)   // the message handler, the function, the argument
        let status = enterCall(on: L) { () -> CInt in
            cluashim_cleartraceback(mainThread)
            return cluashim_pcallref(L, function.reference, argument?.reference ?? LUA_NOREF)
        }
        try checkProtectedCall(status: status, on: L)
    }
}
