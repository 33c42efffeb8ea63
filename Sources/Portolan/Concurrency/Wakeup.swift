#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What wakes a blocked wait at once: a POSIX semaphore that an interrupt, a cancelled ticket or
/// the end of the awaited work posts, so that a waiting thread sleeps until something happens
/// instead of looking every few milliseconds.
///
/// `post()` is one `sem_post`, which POSIX lists as async-signal-safe: a signal handler may call it
/// (through `LuaInterrupt.request`). A post that no wait consumes leaves the count up, and the next
/// wait wakes once for nothing, looks at why it waits, and sleeps again: harmless, and never lost.
/// A POSIX semaphore, not Foundation's or Dispatch's, so that the engine links no Foundation and
/// the post stays signal-safe.
public final class Wakeup: @unchecked Sendable {
    // @unchecked: the semaphore is thread-safe; its address never moves (allocated).
    package let semaphore: UnsafeMutablePointer<sem_t>

    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes the wait, or the next one. Async-signal-safe.
    public func post() {
        sem_post(semaphore)
    }

    /// Sleeps until a post, or until `deadline` (nil: no deadline). A post made before the call
    /// wakes it at once.
    func wait(until deadline: ContinuousClock.Instant?) {
        guard let deadline else {
            while sem_wait(semaphore) != 0, errno == EINTR {}
            return
        }
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return }
        // sem_timedwait takes a CLOCK_REALTIME instant: the caller's loop measures the deadline on
        // the monotonic clock again after waking, so a step of the wall clock only wakes it early.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = min(left, .seconds(86_400)).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        var until = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
        _ = sem_timedwait(semaphore, &until)
    }
}
