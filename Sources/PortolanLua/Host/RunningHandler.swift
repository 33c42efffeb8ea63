import Lua
import Portolan

/// A handler while its call runs, as its waits need it: the thread it runs on (where it waits),
/// its time limit, and why a wait stopped it, if one did.
struct RunningHandler {
    let thread: LuaCallThread
    let timeLimit: Duration
    let deadline: ContinuousClock.Instant
    /// What the handler's call fails with, whatever its error says: set by the wait that stopped it.
    var stop: (any Error)?
}
