import Synchronization

/// The async work a thread is blocked on (`ThreadWait.run`): which task runs it, and whether that
/// task queued work on the blocked thread.
final class AwaitedWork: @unchecked Sendable {
    // @unchecked: `state` is behind its mutex; `task` only names the task, it is never used to run.
    private struct State {
        var task: UInt?
        var started: ContinuousClock.Instant?
        var outcome: Result<Void, ThreadWait.WaitFailure>?
        var reentered = false
    }

    private let state = Mutex(State())
    let wakeup: Wakeup

    init(wakeup: Wakeup) {
        self.wakeup = wakeup
    }

    /// Called first thing by the task that runs the work; wakes the wait, whose time limit
    /// starts now.
    func start() {
        let task = withUnsafeCurrentTask { $0.map(Self.address(of:)) }
        state.withLock { state in
            state.task = task
            state.started = .now
        }
        wakeup.post()
    }

    func finish(_ outcome: Result<Void, ThreadWait.WaitFailure>) {
        state.withLock { state in
            state.outcome = outcome
            state.task = nil
        }
        wakeup.post()
    }

    var progress: (started: ContinuousClock.Instant?, outcome: Result<Void, ThreadWait.WaitFailure>?, reentered: Bool) {
        state.withLock { ($0.started, $0.outcome, $0.reentered) }
    }

    /// Where a task lives: what names it, compared and never followed.
    private static func address(of task: UnsafeCurrentTask) -> UInt {
        unsafeBitCast(task, to: UInt.self)
    }

    /// Notes work queued on the blocked thread: when the work's own task queued it, the thread
    /// would never serve it, so the wait ends now. `job` is the job queued, when one is: a task
    /// that hops to an actor queues itself as the job (a task is its own first job, at the same
    /// address), and is no longer the current task while it does.
    func noteQueued(job: UnownedJob?) {
        let queuer = job.map { unsafeBitCast($0, to: UInt.self) }
            ?? withUnsafeCurrentTask(body: { $0.map(Self.address(of:)) })
        guard let current = queuer else { return }
        let isOwnTask = state.withLock { state in
            guard state.outcome == nil, state.task == current else { return false }
            state.reentered = true
            return true
        }
        if isOwnTask { wakeup.post() }
    }
}
