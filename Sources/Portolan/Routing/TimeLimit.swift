import Synchronization

/// How a piece of work run under a time limit ended.
enum TimedOutcome: Sendable {
    case finished
    case failed(String)
    case timedOut
}

/// Runs `work` and returns when it ends or when `limit` has passed, whichever comes first.
///
/// A task group would wait for a timed-out child that ignores cancellation; here the work runs in
/// its own task, so a handler that never finishes is cancelled and abandoned instead of hanging
/// the router.
func runWithTimeLimit(
    _ limit: Duration?,
    _ work: @escaping @Sendable () async throws -> Void
) async -> TimedOutcome {
    guard let limit else { return await runDirectly(work) }
    return await withCheckedContinuation { continuation in
        let gate = ResumeOnce(continuation)
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled, gate.resume(with: .timedOut) {
                gate.cancelWorker()
            }
        }
        let worker = Task {
            do {
                try await work()
                gate.resume(with: .finished)
            } catch {
                gate.resume(with: .failed(String(describing: error)))
            }
            timer.cancel()
        }
        gate.setWorker(worker)
    }
}

/// Runs `work` in the caller's task; for work without a limit, or that keeps its own
/// (`KeepsOwnTimeLimit`, which reports running out of time as `HandlerTimeout`).
func runDirectly(_ work: () async throws -> Void) async -> TimedOutcome {
    do {
        try await work()
        return .finished
    } catch is HandlerTimeout {
        return .timedOut
    } catch {
        return .failed(String(describing: error))
    }
}

/// Resumes a continuation once, whichever of the work and the timer gets there first.
private final class ResumeOnce: Sendable {
    private let state: Mutex<(continuation: CheckedContinuation<TimedOutcome, Never>?, worker: Task<Void, Never>?)>

    init(_ continuation: CheckedContinuation<TimedOutcome, Never>) {
        state = Mutex((continuation, nil))
    }

    @discardableResult
    func resume(with outcome: TimedOutcome) -> Bool {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
        return continuation != nil
    }

    func setWorker(_ worker: Task<Void, Never>) {
        state.withLock { $0.worker = worker }
    }

    func cancelWorker() {
        state.withLock { $0.worker }?.cancel()
    }
}
