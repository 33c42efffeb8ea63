import Lua

/// Finished Lua threads kept for the next handler: a reused thread costs what a `lua_pcall` does,
/// a new one an allocation and its garbage.
struct CoroutinePool {
    /// How many finished Lua threads wait for reuse; enough for a handler that a guard's
    /// observer's handler nests, without holding memory for a burst.
    private static let size = 8

    private var idle: [LuaCoroutine] = []

    /// A thread that runs `function`: a kept one restarted, or a new one.
    mutating func coroutine(running function: LuaValue, in state: LuaState) throws(HostError) -> LuaCoroutine {
        while let kept = idle.popLast() {
            if (try? kept.restart(function)) != nil { return kept }
        }
        return try Self.fresh(running: function, in: state)
    }

    /// A new thread that runs `function`, never taken from the pool.
    static func fresh(running function: LuaValue, in state: LuaState) throws(HostError) -> LuaCoroutine {
        do {
            return try LuaCoroutine(function, in: state)
        } catch {
            throw HostError(error)
        }
    }

    /// Keeps a coroutine that returned normally for the next handler.
    mutating func recycle(_ coroutine: LuaCoroutine) {
        guard coroutine.status == .finished, idle.count < Self.size else { return }
        idle.append(coroutine)
    }
}
