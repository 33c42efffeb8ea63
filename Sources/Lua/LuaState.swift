import CLua
import CLuaShim

/// One Lua 5.4 state: its globals, its registry, its threads.
///
/// Not thread-safe and not `Sendable`: use it from one thread at a time (wrap it in your own serial executor
/// to share it). Only ``interrupt`` may be used from elsewhere.
///
/// Every operation is protected: a Lua error, a memory limit or an instruction budget surfaces as a thrown
/// ``LuaError`` and leaves the state usable with its stack as it was. Lua errors never unwind through Swift
/// frames (see `CLuaShim.h`).
///
/// Swift functions given to Lua receive the state as their first argument; capture it weakly, or not at all,
/// or the state and the function keep each other alive.
public final class LuaState {
    /// The main thread, owned by this object and closed in `deinit`.
    let mainThread: OpaquePointer
    /// The thread Swift works on: the main thread, or the coroutine whose Lua code called the Swift function
    /// running now. Swift pushes only on a thread that is running or idle, never on one suspended in a resume.
    var thread: OpaquePointer
    /// Unique among the process's states and never reused: how a reference tells its state without
    /// loading its weak pointer (``LuaReference/stateSerial``), on hot paths.
    let serial = LuaStateSerial.next()
    /// Nesting of protected calls; 0 when no Lua code is running. Only top-level calls start a new budget.
    var callDepth = 0
    /// Registry references dropped by Swift, released at the next top-level call (`LuaReference.deinit` can
    /// run in the middle of a conversion or a finalizer, where touching the stack is not safe).
    var pendingUnreferences: [CInt] = []

    /// Stops running Lua code from another thread or a signal handler.
    public let interrupt: LuaInterrupt
    /// Whether the state was opened with the sandboxed library set.
    public let isSandboxed: Bool
    /// The deepest table nesting converted to or from Swift; deeper tables fail with
    /// ``LuaError/Kind/conversion``. Values pushed from Swift are bounded by
    /// ``maximumPushedTableDepth``, which may be less.
    public var maximumTableDepth = 200
    /// The deepest table nesting pushed from Swift: ``maximumTableDepth``, but at most 1,000
    /// (`CLUASHIM_MAX_ENCODED_DEPTH`), since the decoder of pushed values recurses in C.
    public var maximumPushedTableDepth: Int {
        min(maximumTableDepth, Int(CLUASHIM_MAX_ENCODED_DEPTH))
    }
    /// The directory where the sandboxed `require` looks for `name.lua` (`a.b` becomes `a/b.lua`), or nil for
    /// none; set with ``setModuleDirectory(_:)``. Module names must be dot-separated segments of letters,
    /// digits, `_` and `-`, so a script cannot reach outside the directory with `..` or an absolute path.
    /// Ignored by a full (non-sandboxed) state, whose `require` uses `package.path`.
    public internal(set) var moduleDirectory: String?

    /// Opens a state with a sandboxed or the full standard library.
    ///
    /// The sandbox opens only base, string, table, math, utf8 and coroutine, and in them:
    /// - no `dofile`, `loadfile` or `string.dump`; `load` accepts text chunks only;
    /// - `collectgarbage` accepts only "collect", "count", "step" and "isrunning" (tuning or stopping the
    ///   collector is the host's business);
    /// - `setmetatable` refuses metatables with `__gc`, since finalizers run outside the instruction budget;
    /// - `require` finds modules in `package.loaded`, those registered with ``preload(name:loader:)`` and its
    ///   siblings, and `name.lua` files under ``moduleDirectory`` when set, opened beneath it through no symbolic
    ///   link, and only a regular file with one name of at most ``maximumChunkFileSize`` (ConfinedFile.h);
    ///   no C modules, no `package`;
    /// - `getmetatable("")` returns `false`, so scripts cannot change the string metatable;
    /// - `string.find`, `match`, `gmatch` and `gsub` are bounded: the same results and errors as liblua5.4's,
    ///   but every step of a match counts against ``instructionBudget`` and ``interrupt`` stops it (liblua5.4's
    ///   matcher runs in C, which the count hook never sees).
    public init(sandboxed: Bool = true) throws(LuaError) {
        // The callbacks are the only entry points from C into Swift; neither may raise (see invoke).
        let state = cluashim_newstate(
            { L, box in LuaState.callFromLua(L, box) },
            { box in LuaState.releaseFunction(box) }
        )
        guard let state else { throw LuaError(.memory, "not enough memory to create a Lua state") }
        mainThread = state
        thread = state
        interrupt = LuaInterrupt()
        isSandboxed = sandboxed
        cluashim_setinterruptflag(state, interrupt.flag)
        cluashim_setowner(state, Unmanaged.passUnretained(self).toOpaque())
        let status = sandboxed ? cluashim_popensandbox(state) : cluashim_popenlibs(state)
        try check(status, on: state)   // deinit still closes the state when this throws
    }

    deinit {
        cluashim_close(mainThread)
    }

    /// The number of values on the stack of the current thread. Stays constant across every public operation,
    /// successful or not; exposed to check exactly that.
    public var stackTop: Int {
        Int(lua_gettop(thread))
    }

    /// Runs a full garbage collection cycle.
    public func collectGarbage() throws(LuaError) {
        try ensureStack(thread, 3)
        try check(cluashim_pgc(thread, LUA_GCCOLLECT), on: thread)
    }

    /// The state a lua_State belongs to, unless it is closing.
    static func owner(of L: OpaquePointer) -> LuaState? {
        guard let owner = cluashim_getowner(L) else { return nil }
        return Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    }

    // MARK: Stack discipline

    /// Makes room for `count` more values. Lua's stack grows on demand only in Lua code; from the API the
    /// caller must ask. lua_checkstack reports failure instead of raising.
    func ensureStack(_ L: OpaquePointer, _ count: Int) throws(LuaError) {
        guard count < Int(Int32.max), lua_checkstack(L, Int32(count)) != 0 else {
            throw LuaError(.memory, "Lua stack overflow")
        }
    }

    /// Throws the error a protected shim operation left on top, if it failed.
    func check(_ status: CInt, on L: OpaquePointer) throws(LuaError) {
        guard status != LUA_OK else { return }
        throw popError(status: status, on: L, traceback: nil)
    }

    /// Queued by `LuaReference.deinit`; see ``pendingUnreferences``.
    func releaseReference(_ reference: CInt) {
        pendingUnreferences.append(reference)
    }

    func drainUnreferences() {
        guard !pendingUnreferences.isEmpty, lua_checkstack(mainThread, 3) != 0 else { return }
        // Swap first: a finalizer run by these calls may queue more, which must not touch the array being read.
        let references = pendingUnreferences
        pendingUnreferences = []
        for reference in references where cluashim_punref(mainThread, reference) != LUA_OK {
            cluashim_pop(mainThread, 1)   // cannot fail in practice (no allocation); drop the error object
        }
    }
}
