import CPlatform

/// What wakes a blocked wait at once: a wake-up that an interrupt, a cancelled ticket or the end
/// of the awaited work posts, so that a waiting thread sleeps until something happens instead of
/// looking every few milliseconds.
///
/// `post()` is async-signal-safe: a signal handler may call it (through `LuaInterrupt.request`). A
/// post that no wait consumes is kept, and the next wait wakes once for nothing, looks at why it
/// waits, and sleeps again: harmless, and never lost. The wake-up itself is C (`CPlatform`'s
/// `Wakeup.c`), one definition for the engine, the interrupt and the count hook's watchdog: an
/// unnamed POSIX semaphore on Linux, a pipe where the build takes the portable paths (Darwin has
/// no unnamed semaphore). Not Foundation's or Dispatch's: the engine links no Foundation, and the
/// post must stay signal-safe.
public final class Wakeup: @unchecked Sendable {
    // @unchecked: the C wake-up is thread-safe; its storage never moves (allocated) and lives as
    // long as this object.
    package let handle: OpaquePointer

    public init() {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: wakeup_size(), alignment: 16)
        handle = OpaquePointer(storage)
        wakeup_init(handle)
    }

    deinit {
        wakeup_destroy(handle)
        UnsafeMutableRawPointer(handle).deallocate()
    }

    /// Wakes the wait, or the next one. Async-signal-safe.
    public func post() {
        wakeup_post(handle)
    }

    /// Sleeps until a post, or until `deadline` (nil: no deadline). A post made before the call
    /// wakes it at once. The limit goes to C as a length of time, not an instant: each side
    /// measures it on a clock of its own, and the caller's loop measures the deadline again after
    /// waking, so a wake that comes early only makes it look again.
    func wait(until deadline: ContinuousClock.Instant?) {
        guard let deadline else { return wakeup_wait(handle, -1) }
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return }
        let (seconds, attoseconds) = min(left, .seconds(86_400)).components
        wakeup_wait(handle, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// "semaphore" or "pipe": what this build's wake-ups are made of (`Wakeup.h`).
    package static var way: String { String(cString: wakeup_way()) }
}
