import Foundation
import Synchronization

/// One thread of its own that runs work one piece at a time, in arrival order: the single owner
/// of a router's state (and, in a scripting host, of its Lua state).
///
/// It is a `SerialExecutor`, so an actor can make it its executor: every job of that actor then
/// runs here, never on Swift's cooperative pool. Work that runs long (a script, a handler that
/// waits) occupies this thread only, so it cannot starve an app's tasks or a test runner's, and
/// a unit that does not suspend runs to completion before the next one starts.
///
/// The thread ends when the last reference to the executor goes and its queue is empty.
public final class SerialThread: SerialExecutor, @unchecked Sendable {
    // @unchecked: `queue` is thread-safe and immutable once made.
    private let queue = WorkQueue()

    /// Starts the thread; `name` shows in debuggers and `ps -T`. Returns without waiting for it:
    /// work submitted meanwhile waits in the queue.
    public init(name: String = "portolan") {
        let queue = self.queue
        let thread = Thread {
            SerialThread.markCurrent(queue)
            queue.runUntilClosed()
        }
        thread.name = name
        // Lua and the planner recurse on the C stack: give them room beyond a secondary thread's default.
        thread.stackSize = 16 << 20
        thread.start()
    }

    deinit {
        queue.close()
    }

    /// Whether the caller runs on this thread (inside a unit of work).
    public var isCurrent: Bool {
        pthread_getspecific(Self.currentQueueKey) == Unmanaged.passUnretained(queue).toOpaque()
    }

    /// Each thread's queue, in thread-specific data: which `SerialThread` a thread is, if any.
    private static let currentQueueKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static func markCurrent(_ queue: WorkQueue) {
        pthread_setspecific(currentQueueKey, Unmanaged.passUnretained(queue).toOpaque())
    }

    /// Runs `work` on the thread after everything submitted before it.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        queue.append(.closure(work))
    }

    /// Runs `work` on the thread after everything submitted before it, and returns its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.append(.job(UnownedJob(job), self.asUnownedSerialExecutor()))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isCurrent, "expected to run on a Portolan host thread")
    }
}

/// The work a `SerialThread` runs, first in first out.
private final class WorkQueue: @unchecked Sendable {
    // @unchecked: every field is read and written with `condition` locked.
    enum Work {
        case job(UnownedJob, UnownedSerialExecutor)
        case closure(@Sendable () -> Void)
    }

    private let condition = NSCondition()
    private var items = FIFOQueue<Work>()
    private var isClosed = false

    func append(_ work: Work) {
        condition.lock()
        items.append(work)
        condition.signal()
        condition.unlock()
    }

    func close() {
        condition.lock()
        isClosed = true
        condition.signal()
        condition.unlock()
    }

    /// The thread's body: runs work as it arrives; returns once closed and drained.
    func runUntilClosed() {
        while let work = next() {
            switch work {
            case .job(let job, let executor):
                job.runSynchronously(on: executor)
            case .closure(let body):
                body()
            }
        }
    }

    private func next() -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            if isClosed { return nil }
            condition.wait()
        }
        return items.popFirst()
    }
}
