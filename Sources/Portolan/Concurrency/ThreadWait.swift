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
/// (one route never sees another's changes). `stop` is polled every few milliseconds: it reads
/// flags that a signal handler, another task or a timer set, which no condition variable could be
/// told of from a signal handler.
public enum ThreadWait {
    /// How often a wait looks at `stop`: the longest an interrupt or a cancellation waits to be seen.
    static let pollInterval = Duration.milliseconds(5)

    /// Sleeps until `deadline`, or until `stop` gives a reason; nil when the deadline came.
    public static func sleep(until deadline: ContinuousClock.Instant, stop: () -> WaitStop?) -> WaitStop? {
        let clock = ContinuousClock()
        let neverSignalled = DispatchSemaphore(value: 0)   // a sleep that a timeout ends
        while true {
            if let reason = stop() { return reason }
            let now = clock.now
            guard now < deadline else { return nil }
            let slice = min(deadline - now, pollInterval)
            _ = neverSignalled.wait(timeout: .now() + slice.dispatchInterval)
        }
    }

    /// Runs async `work` on the cooperative pool and blocks this thread until it ends, `limit`
    /// passes, or `stop` gives a reason. The limit counts from when the work starts: time spent
    /// waiting for a busy pool to start it is not the handler's. Work that does not end in time
    /// is cancelled and abandoned: a Swift node that ignores cancellation cannot hang the router.
    static func run(
        limit: Duration?, stop: () -> WaitStop?, _ work: @escaping @Sendable () async throws -> Void
    ) -> Result<Void, WaitFailure> {
        let progress = Mutex<(started: ContinuousClock.Instant?, outcome: Result<Void, WaitFailure>?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            progress.withLock { $0.started = .now }
            let result: Result<Void, WaitFailure>
            do {
                try await work()
                result = .success(())
            } catch is HandlerTimeout {
                result = .failure(.stopped(.timedOut))
            } catch {
                result = .failure(.threw(error))
            }
            progress.withLock { $0.outcome = result }
            done.signal()
        }
        while true {
            let (started, outcome) = progress.withLock { ($0.started, $0.outcome) }
            if let outcome { return outcome }
            if let reason = stop() {
                task.cancel()
                return .failure(.stopped(reason))
            }
            if let limit, let started, ContinuousClock.now - started >= limit {
                task.cancel()
                return .failure(.stopped(.timedOut))
            }
            _ = done.wait(timeout: .now() + pollInterval.dispatchInterval)
        }
    }

    /// How `run` failed.
    enum WaitFailure: Error {
        case threw(any Error)
        case stopped(WaitStop)
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
