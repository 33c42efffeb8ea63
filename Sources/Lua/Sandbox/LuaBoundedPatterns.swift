import CLuaShim

extension LuaState {
    /// Sets global `name` to a table of the sandbox's bounded `find`, `match`, `gmatch` and `gsub`.
    ///
    /// A sandboxed state's string library already has them; this lets a state with every library hold them
    /// beside liblua5.4's own, so tests and benchmarks can compare the two in one state. Their results and
    /// errors are liblua5.4's; the difference is that every step of a match counts against
    /// ``instructionBudget`` and a ``LuaInterrupt`` stops it, which liblua5.4's matcher, running in C where the
    /// count hook never sees it, escapes.
    public func setBoundedPatternFunctions(asGlobal name: String) throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        try check(cluashim_pboundedpatternfunctions(L), on: L)
        let status = enterCall(on: L) { name.withCString { cluashim_psetglobal(L, $0) } }
        try checkCall(status, on: L)
    }
}
