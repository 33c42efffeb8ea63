import CLuaShim
import CPlatform
import Synchronization

/// Interrupts the Lua code a ``LuaState`` is running, from any thread or from a signal handler.
///
/// The state's count hook polls the flag (every 1000 instructions at most once the hook is armed, which a
/// request does at once through the watchdog; a sandboxed pattern match, every 1000 steps) and raises
/// `interrupted`, which the
/// running call reports as ``LuaError/Kind/interrupted``. A request made while no Lua code runs is dropped
/// when the next top-level call starts, so a Ctrl-C at a REPL prompt does not kill the next line.
public final class LuaInterrupt: @unchecked Sendable {
    // @unchecked: the only mutable state is the pointee, read and written with atomic C builtins only.
    // Kept in its own allocation, not in the state, so a handle that outlives its state stays valid.
    let flag: UnsafeMutablePointer<CInt>
    /// The wake-up a request posts, so that a host's blocked wait wakes at once (its address, as
    /// an integer: a signal handler may only load it); 0 until `wakes(_:owner:)`.
    private let wakeup = Atomic<UInt>(0)
    /// Keeps the wake-up's owner alive as long as a request may post it.
    private let wakeupOwner = Mutex<(any AnyObject & Sendable)?>(nil)

    init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit {
        flag.deallocate()
    }

    /// Asks the running call to stop, and wakes the host's wait. Async-signal-safe: atomic
    /// operations and a wake-up's post (`Wakeup.h`).
    public func request() {
        cluashim_flag_setbits(flag, CInt(CLUASHIM_INTERRUPT_REQUESTED))
        wake()
    }

    /// Makes every request post `wakeup` (a host's `Wakeup`'s handle), which `owner` holds.
    package func wakes(_ wakeup: OpaquePointer, owner: any AnyObject & Sendable) {
        wakeupOwner.withLock { $0 = owner }
        self.wakeup.store(UInt(bitPattern: Int(bitPattern: wakeup)), ordering: .releasing)
    }

    /// Wakes the host's wait, and the watchdog, which arms the running call's hook at once (a call runs
    /// unhooked until then: `HookWatch.h`).
    private func wake() {
        cluashim_wakewatchdog()
        if let wakeup = OpaquePointer(bitPattern: wakeup.load(ordering: .acquiring)) {
            wakeup_post(wakeup)
        }
    }

    /// Says that whoever waited for the running call gave up on it (a scenario cut past its
    /// grace): besides stopping, its thread lowers its own priority to the least at its next
    /// hook, so that what it still does costs the threads that go on next to nothing. Sticky.
    public func abandon() {
        cluashim_flag_setbits(flag, CInt(CLUASHIM_INTERRUPT_REQUESTED | CLUASHIM_INTERRUPT_ABANDONED))
        wake()
    }

    /// Whether a request is pending (not yet seen by the hook).
    public var isRequested: Bool {
        cluashim_flag_get(flag) & CInt(CLUASHIM_INTERRUPT_REQUESTED) != 0
    }

    func clear() {
        cluashim_flag_clearbits(flag, CInt(CLUASHIM_INTERRUPT_REQUESTED))
    }
}
