import CLua
import CLuaShim

extension LuaState {
    /// The most bytes Lua may hold, or nil for no limit.
    ///
    /// Enforced by the state's allocator: an allocation past the limit fails, Lua collects garbage and retries,
    /// then raises "not enough memory", which the running call reports as ``LuaError/Kind/memory``. Lowering it
    /// below ``memoryUsed`` makes every growing allocation fail until garbage is collected.
    public var memoryLimit: Int? {
        get {
            let limit = cluashim_memorylimit(mainThread)
            return limit == 0 ? nil : Int(limit)
        }
        set {
            cluashim_setmemorylimit(mainThread, newValue.map { max(1, $0) } ?? 0)
        }
    }

    /// Bytes Lua holds now.
    public var memoryUsed: Int {
        cluashim_memoryused(mainThread)
    }

    /// Bytes the state's pool of small blocks has taken from malloc (`SmallBlockPool.h`), held or free: what
    /// the pool's reuse keeps flat, and what ``memoryLimit`` bounds besides ``memoryUsed``.
    var smallBlockPoolBytes: Int {
        cluashim_poolreserved(mainThread)
    }

    /// How many Lua instructions each top-level call may run, or nil for no budget.
    ///
    /// Every top-level operation that runs Lua code (`call`, `run`, a
    /// ``LuaCoroutine/resume(_:)`` …) starts with a fresh budget; calls nested inside it (Lua calling Swift
    /// calling Lua) share it. Exceeding it raises `instruction budget exceeded`, reported as
    /// ``LuaError/Kind/instructionLimit``; Lua's `pcall` cannot swallow it, since every further instruction
    /// raises again. Counted in steps of up to 1000 instructions once the count hook is armed: a budget of
    /// at most 1 million from the call's first instruction; a larger one once the call has run a slice
    /// (1–2 ms, a watchdog thread arms it), the slice before charged at 100 instructions a microsecond
    /// (docs/security.md, "What the instruction budget counts"). Time spent inside C functions is not
    /// counted (a long `string.rep`, a `table.concat`: work linear in what they build, so pair the budget with
    /// a memory limit), except pattern matching: in a sandboxed state `string.find`, `match`, `gmatch` and
    /// `gsub` charge every step of a match to the budget, and the interrupt stops them.
    public var instructionBudget: Int? {
        get {
            let budget = cluashim_instructionbudget(mainThread)
            return budget > 0 ? Int(budget) : nil
        }
        set {
            cluashim_setinstructionbudget(mainThread, newValue.map { Int64(max(1, $0)) } ?? 0)
        }
    }

    /// Runs `body` with ``instructionBudget`` set to `budget`, restoring the previous budget afterwards.
    public func withInstructionBudget<T, E: Error>(_ budget: Int?, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = instructionBudget
        instructionBudget = budget
        defer { instructionBudget = previous }
        return try body()
    }

    /// Instructions counted so far in the current (or last) top-level call, in hook steps, with the
    /// estimate charged for its unhooked start; 0 without a budget.
    public var instructionsUsed: Int {
        Int(cluashim_instructionsused(mainThread))
    }

    /// Runs `body` with a time limit that the count hook checks, as it checks the budget: a call
    /// still running `limit` from now raises `time limit exceeded` (``LuaError/Kind/timeLimit``)
    /// wherever it is, inside a long C library call too, since those charge their work. A limit
    /// set around this one still holds: the earlier deadline wins. Restored afterwards.
    public func withTimeLimit<T, E: Error>(_ limit: Duration, _ body: () throws(E) -> T) throws(E) -> T {
        try withDeadline(Self.monotonicNanoseconds + Self.nanoseconds(of: limit), body)
    }

    /// ``withTimeLimit(_:_:)`` with the limit's end given on the shim's clock
    /// (``monotonicNanoseconds``): a caller that runs many calls converts its limit once
    /// (``nanoseconds(of:)``) and reads the clock once per call.
    public func withDeadline<T, E: Error>(_ deadline: Int64, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = cluashim_deadline(mainThread)
        cluashim_setdeadline(mainThread, previous > 0 ? min(previous, deadline) : deadline)
        defer { cluashim_setdeadline(mainThread, previous) }
        return try body()
    }

    /// The clock the count hook checks deadlines on (CLOCK_MONOTONIC), in nanoseconds.
    public static var monotonicNanoseconds: Int64 { cluashim_monotonicnow() }

    /// `limit` in nanoseconds (whole negative seconds count as none). Clamped: a limit of years is
    /// no limit, and must not overflow the nanosecond clock when added to it.
    public static func nanoseconds(of limit: Duration) -> Int64 {
        let (seconds, attoseconds) = limit.components
        return seconds >= 1_000_000_000 ? Int64.max / 2 : max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
