import Glibc
import Lua
import Portolan
import Synchronization
import Testing

/// Issue 18, finding 4: a call its waiter abandoned (a scenario cut past its grace) stops at its
/// next hook, and its thread first lowers its own priority to the least, so that what it still
/// runs costs the threads that go on next to nothing. Run on a thread of its own, which ends with
/// the test: the nice value stays with the thread. Lowering it is the Linux path's (Linux keeps a
/// nice value per thread); the portable path stops the call and lowers nothing.
@Suite struct AbandonedCallTests {
    @Test func anAbandonedCallStopsAndLowersItsThreadsPriority() async throws {
        let thread = SerialThread(name: "abandoned")
        let started = Mutex<LuaInterrupt?>(nil)
        async let ended: (kind: LuaError.Kind?, nice: CInt) = thread.run {
            errno = 0
            let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            guard before == 0, let state = try? LuaState() else { return (nil, before) }
            // Tells the test the loop runs, so the request cannot land before the call starts.
            _ = try? state.register(name: "running") { _ in
                started.withLock { $0 = state.interrupt }
                return []
            }
            var kind: LuaError.Kind?
            do throws(LuaError) {
                _ = try state.run("running() local n = 0 while true do n = n + 1 end")
            } catch {
                kind = error.kind
            }
            return (kind, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        var interrupt: LuaInterrupt?
        while interrupt == nil {
            try await Task.sleep(for: .milliseconds(5))
            interrupt = started.withLock { $0 }
        }
        interrupt?.abandon()
        let result = await ended
        #expect(result.kind == .interrupted)
        #if os(Linux) && !PORTOLAN_PORTABLE
        #expect(result.nice == 19, "the abandoned thread's nice value")
        #else
        #expect(result.nice == 0, "the portable path leaves the thread's priority as it was")
        #endif
        // This thread, which did not run the call, keeps its priority.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) != 19)
    }
}
