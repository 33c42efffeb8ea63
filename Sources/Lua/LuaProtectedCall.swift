import CLua
import CLuaShim

extension LuaState {
    /// Runs `body`, which runs Lua code on thread `L`. A top-level call (nothing else running) starts a fresh
    /// instruction budget (its thread unhooked until the watchdog arms it: `HookWatch.h`), drops a stale
    /// interrupt request and releases dropped references; nested calls (from
    /// a Swift function called by Lua) share the budget of the call they are part of, so a script cannot earn
    /// more instructions by going through Swift.
    func enterCall<T, E: Error>(on L: OpaquePointer, _ body: () throws(E) -> T) throws(E) -> T {
        if callDepth == 0 {
            drainUnreferences()
            interrupt.clear()
            cluashim_beginbudget(mainThread, L)
        }
        callDepth += 1
        defer {
            callDepth -= 1
            if callDepth == 0 { cluashim_endbudget(mainThread) }
        }
        return try body()
    }

    /// Calls the function below the `argumentCount` values on top of `L`, with a traceback on error.
    /// Function and arguments are consumed; on success `resultCount` results are left (or all with MULTRET).
    func protectedCall(on L: OpaquePointer, argumentCount: Int, resultCount: CInt) throws(LuaError) {
        try ensureStack(L, 2)   // the message handler
        let status = enterCall(on: L) { () -> CInt in
            cluashim_cleartraceback(mainThread)
            return cluashim_pcalltraceback(L, CInt(argumentCount), resultCount)
        }
        try checkProtectedCall(status: status, on: L)
    }

    /// Throws the error a protected call with a traceback (`cluashim_pcalltraceback`) ended with,
    /// popping its object, or the limit it tripped and its script swallowed.
    func checkProtectedCall(status: CInt, on L: OpaquePointer) throws(LuaError) {
        guard status == LUA_OK else {
            let traceback = cluashim_lasttraceback(mainThread).map { String(cString: $0) }
            cluashim_cleartraceback(mainThread)
            throw popError(status: status, on: L, traceback: traceback)
        }
        if let swallowed = swallowedTrip() { throw swallowed }
    }

    /// The budget or interrupt error of a top-level call that ended normally although the hook raised
    /// it: a script caught it where the hook's re-raising could not follow (inside a coroutine that
    /// `coroutine.resume` protects, whose caller then returned at once). The call fails all the same.
    func swallowedTrip() -> LuaError? {
        guard callDepth == 0, let (kind, words) = trip else { return nil }
        return LuaError(kind, words + " (the script caught it and went on)")
    }

    /// The limit the current (or last) top-level call tripped, as an error kind and in the hook's
    /// words (`cluashim_tripdescription`, the one definition); nil when none.
    var trip: (kind: LuaError.Kind, words: String)? {
        let tripped = cluashim_tripped(mainThread)
        let kind: LuaError.Kind
        switch Int(tripped) {
        case CLUASHIM_TRIP_BUDGET: kind = .instructionLimit
        case CLUASHIM_TRIP_INTERRUPT: kind = .interrupted
        case CLUASHIM_TRIP_DEADLINE: kind = .timeLimit
        default: return nil
        }
        return (kind, String(cString: cluashim_tripdescription(tripped)))
    }

    /// Instructions an error object's `__tostring` may run when the host describes it.
    static let errorDescriptionBudget = 1_000_000

    /// Pops the error object on top of `L` and describes it.
    func popError(status: CInt, on L: OpaquePointer, traceback: String?) -> LuaError {
        // First: describing the object runs Lua, which may trip the hook anew.
        let kind = kind(of: status)
        let limit = status == LUA_ERRMEM ? trip : nil
        var message = errorMessage(at: -1, on: L)
        // A large allocation refused because the call was past a limit: Lua says "not enough memory".
        if let limit { message = limit.words + " (while allocating)" }
        cluashim_pop(L, 1)
        return LuaError(kind, message, traceback: traceback)
    }

    func kind(of status: CInt) -> LuaError.Kind {
        // The hook's errors are plain runtime errors to Lua, and the allocator's refusals past a limit
        // memory errors; the shim remembers which limit they were.
        if status == LUA_ERRRUN || status == LUA_ERRERR || status == LUA_ERRMEM, let trip { return trip.kind }
        switch status {
        case LUA_ERRSYNTAX: return .syntax
        case LUA_ERRMEM: return .memory
        case LUA_ERRERR: return .messageHandler
        default: return .runtime
        }
    }

    /// The message of an error object: strings as they are, anything else through `tostring` (protected,
    /// since `__tostring` is Lua code).
    func errorMessage(at index: CInt, on L: OpaquePointer) -> String {
        if lua_type(L, index) == LUA_TSTRING {
            return stringValue(at: index, on: L)
        }
        let index = lua_absindex(L, index)
        let typeName = String(cString: lua_typename(L, lua_type(L, index)))
        guard lua_checkstack(L, 4) != 0 else { return "(error object is a \(typeName) value)" }
        // `__tostring` runs under a small budget of its own when no call is running (an error object
        // whose `__tostring` loops must not hang the host that shows it).
        let status = callDepth > 0 ? cluashim_ptostring(L, index) : withInstructionBudget(Self.errorDescriptionBudget) { () -> CInt in
            cluashim_beginbudget(mainThread, L)
            defer { cluashim_endbudget(mainThread) }
            return cluashim_ptostring(L, index)
        }
        defer { cluashim_pop(L, 1) }
        guard status == LUA_OK, lua_type(L, -1) == LUA_TSTRING else {
            return "(error object is a \(typeName) value)"
        }
        return stringValue(at: -1, on: L)
    }

    /// A string on the stack, decoded leniently (invalid UTF-8 becomes U+FFFD).
    func stringValue(at index: CInt, on L: OpaquePointer) -> String {
        var length = 0
        guard let pointer = cluashim_tolstring(L, index, &length) else { return "" }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }
}
