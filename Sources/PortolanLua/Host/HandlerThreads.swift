import Lua
import Portolan

/// The Lua threads handlers run on, one per level of nesting (a handler whose Swift call runs
/// another handler runs that one a level deeper), each reused call after call: a handler call is a
/// plain protected call on its level's thread, which costs what a `lua_pcall` does.
struct HandlerThreads {
    /// How deep handlers may nest: each level is a protected call on a thread of its own, whose C
    /// calls Lua counts per thread, so the host bounds the nesting itself. No route nests more than
    /// a few (a guard's observer's handler).
    static let deepest = 32

    private var byLevel: [LuaCallThread] = []

    /// The thread for a handler at `level` (0: called by no handler): the level's own, or a new one
    /// when it has none yet or a script has used it as a coroutine of its own.
    mutating func thread(forLevel level: Int, in state: LuaState) throws -> LuaCallThread {
        guard level < Self.deepest else {
            throw HandlerError("handlers nested more than \(Self.deepest) deep (a handler's call runs another handler)")
        }
        if level < byLevel.count, byLevel[level].isIdle { return byLevel[level] }
        let thread: LuaCallThread
        do {
            thread = try LuaCallThread(in: state)
        } catch {
            throw HostError(error)
        }
        if level < byLevel.count { byLevel[level] = thread } else { byLevel.append(thread) }
        return thread
    }
}
