import CLuaShim

/// Interrupts the Lua code a ``LuaState`` is running, from any thread or from a signal handler.
///
/// The state's count hook polls the flag (every 1000 instructions at most; a sandboxed pattern match, every
/// 1000 steps) and raises `interrupted`, which the
/// running call reports as ``LuaError/Kind/interrupted``. A request made while no Lua code runs is dropped
/// when the next top-level call starts, so a Ctrl-C at a REPL prompt does not kill the next line.
public final class LuaInterrupt: @unchecked Sendable {
    // @unchecked: the only mutable state is the pointee, read and written with atomic C builtins only.
    // Kept in its own allocation, not in the state, so a handle that outlives its state stays valid.
    let flag: UnsafeMutablePointer<CInt>

    init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit {
        flag.deallocate()
    }

    /// Asks the running call to stop. Async-signal-safe: one atomic store.
    public func request() {
        cluashim_flag_set(flag, 1)
    }

    /// Whether a request is pending (not yet seen by the hook).
    public var isRequested: Bool {
        cluashim_flag_get(flag) != 0
    }

    func clear() {
        cluashim_flag_set(flag, 0)
    }
}
