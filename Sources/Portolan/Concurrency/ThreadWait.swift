import Dispatch
import Synchronization

/// Why a wait on a router's thread ended before its time.
public enum WaitStop: Sendable, Equatable {
    /// The route, or the task that asked for it, was cancelled.
    case cancelled
    /// The host was interrupted (Ctrl-C, a scenario's time limit).
    case interrupted
    /// The handler's time limit passed.
    case timedOut
}

/// Blocking waits for a unit of work on a `SerialThread`: the one way a unit suspends.
///
/// The unit holds its thread while it waits, so nothing else runs on that router or host meanwhile
/// (one route never sees another's changes). A wait sleeps on its host's `Wakeup`, which whatever
/// ends it posts: an interrupt (from a signal handler too), a cancelled ticket, the end of the
/// awaited work. It then asks `stop` why. Only the cancellation of the task that asked for the
/// unit cannot post (Swift has no cancellation handler for synchronous code), so a wait inside a
/// task also looks at `stop` every `cancellationCheck`.
public enum ThreadWait {
    /// The longest a cancelled calling task waits to be seen by a wait that nothing else wakes.
    static let cancellationCheck = Duration.milliseconds(100)

    /// Sleeps until `deadline`, or until `stop` gives a reason; nil when the deadline came.
    public static func sleep(until deadline: ContinuousClock.Instant, wakeup: Wakeup, stop: () -> WaitStop?) -> WaitStop? {
        let inTask = withUnsafeCurrentTask { $0 != nil }
        while true {
            if let reason = stop() { return reason }
            let now = ContinuousClock.now
            guard now < deadline else { return nil }
            wakeup.wait(until: inTask ? min(deadline, now + cancellationCheck) : deadline)
        }
    }

    /// Runs async `work` on the cooperative pool and blocks this thread until it ends, `limit`
    /// passes, or `stop` gives a reason. The limit counts from when the work starts: time spent
    /// waiting for a busy pool to start it is not the handler's. Work that does not end in time
    /// is cancelled and abandoned: a Swift node that ignores cancellation cannot hang the router.
    /// Work that awaits this very thread (its host or router) would wait for the wait that waits
    /// for it: it fails at once as `reentered` (`SerialThread` tells).
    static func run(
        limit: Duration?, wakeup: Wakeup, stop: () -> WaitStop?, _ work: @escaping @Sendable () async throws -> Void
    ) -> Result<Void, WaitFailure> {
        let awaited = AwaitedWork(wakeup: wakeup)
        let previous = SerialThread.awaitWork(awaited)
        defer { _ = SerialThread.awaitWork(previous) }
        let task = SerialThread.unmarked { Task {
            awaited.start()
            let result: Result<Void, WaitFailure>
            do {
                try await work()
                result = .success(())
            } catch is HandlerTimeout {
                result = .failure(.stopped(.timedOut))
            } catch {
                result = .failure(.threw(error))
            }
            awaited.finish(result)
        } }
        let inTask = withUnsafeCurrentTask { $0 != nil }
        while true {
            let (started, outcome, reentered) = awaited.progress
            if let outcome { return outcome }
            if reentered {
                task.cancel()
                return .failure(.reentered)
            }
            if let reason = stop() {
                task.cancel()
                return .failure(.stopped(reason))
            }
            let deadline = limit.flatMap { limit in started.map { $0 + limit } }
            if let deadline, ContinuousClock.now >= deadline {
                task.cancel()
                return .failure(.stopped(.timedOut))
            }
            let check = inTask ? ContinuousClock.now + cancellationCheck : nil
            wakeup.wait(until: [deadline, check].compactMap { $0 }.min())
        }
    }

    /// How `run` failed.
    enum WaitFailure: Error {
        case threw(any Error)
        case stopped(WaitStop)
        /// The work queued something on the thread that waits for it.
        case reentered
    }
}

extension Duration {
    /// The duration for Dispatch, in whole nanoseconds: negative ones are zero, and one too long
    /// for Dispatch saturates instead of trapping.
    public var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !overflowAgain, let nanoseconds = Int(exactly: total) else { return .never }
        return .nanoseconds(nanoseconds)
    }
}
