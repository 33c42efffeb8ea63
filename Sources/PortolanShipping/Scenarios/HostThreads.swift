import Portolan
import PortolanLua
import Synchronization

/// The threads a scenario runner's hosts run on: one per job at most, reused from scenario to
/// scenario. Starting a thread per scenario would cost a thread's start, and on a busy machine a
/// wait for the scheduler, each time; a fresh Lua state per scenario is what isolation needs.
final class HostThreads: Sendable {
    private let idle = Mutex<[SerialThread]>([])

    /// Runs `body` with a thread no other running scenario uses. `body` says whether the thread
    /// is free again. One still busy with an abandoned unit (a scenario cut after its grace) is
    /// not handed out while that unit runs, or the next scenario would queue behind it; it comes
    /// back once the unit ends (the FIFO runs the give-back after it), and the next scenario
    /// reuses it. One whose unit never ends stays out, with its host.
    func with<T>(_ body: (SerialThread) async -> (T, isFree: Bool)) async -> T {
        let thread = idle.withLock { $0.popLast() } ?? SerialThread(name: "portolan.scenario")
        let (result, isFree) = await body(thread)
        if isFree {
            idle.withLock { $0.append(thread) }
        } else {
            thread.submit { self.idle.withLock { $0.append(thread) } }
        }
        return result
    }
}
