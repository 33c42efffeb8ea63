import Lua
import Portolan

/// The Lua threads handlers run on, one per level of nesting (a handler whose Swift call runs
/// another handler runs that one a level deeper), each started afresh for the next handler once
/// its last one returned (``LuaCoroutine/start(_:count:pushing:)``): no restart, no pool to search, no
/// allocation. A thread whose handler failed, stopped in a wait or was resumed by a script is
/// replaced by a new one.
struct HandlerThreads {
    private var byLevel: [LuaCoroutine] = []

    /// The thread for a handler at `level` (0: called by no other handler).
    mutating func thread(forLevel level: Int, in state: LuaState) throws(HostError) -> LuaCoroutine {
        if level < byLevel.count, byLevel[level].canStart { return byLevel[level] }
        drop(from: level)
        let thread: LuaCoroutine
        do {
            thread = try LuaCoroutine(in: state)
            // A handler's only yield is `portolan.wait`'s, the module's: to the handler, Lua's main thread.
            try thread.showAsMainThread()
        } catch {
            throw HostError(error)
        }
        if level == byLevel.count { byLevel.append(thread) }
        return thread
    }

    /// Lets go of the threads from `level` on (one whose handler failed or stopped holds what its
    /// stack held, an out-of-memory handler's garbage included), so that Lua may collect them
    /// before anything else is allocated.
    mutating func drop(from level: Int) {
        if level < byLevel.count { byLevel.removeSubrange(level...) }
    }
}
