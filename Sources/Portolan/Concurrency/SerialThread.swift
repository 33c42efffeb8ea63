import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Starts the thread; `name` shows in debuggers and `ps -T` (the first 15 bytes, as Linux keeps
    /// them). Returns without waiting for it: work submitted meanwhile waits in the queue.
    ///
    /// A POSIX thread rather than Foundation's `Thread`: this was the engine's one use of Foundation,
    /// and linking Foundation (with ICU) made every program that uses the engine start slower. It
    /// multiplied the size of the `portolan` binary and of the table of protocol conformances that
    /// the Swift runtime scans on each first dynamic cast (Benchmarks/README.md, "Start-up").
    public init(name: String = "portolan") {
        SerialThread.start(named: name, queue: queue)
    }

    /// Lua and the planner recurse on the C stack: room beyond a secondary thread's default.
    static let stackSize = 16 << 20

    private static func start(named name: String, queue: WorkQueue) {
        let body = Unmanaged.passRetained(ThreadBody(name: name, queue: queue)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue()
            body.run()
            return nil
        }, body)
        // Without a thread no unit of work could ever run: the process is out of threads or memory.
        precondition(status == 0, "pthread_create failed (\(status)): cannot start the \(name) thread")
    }

    /// What a new thread runs: names itself, marks its queue as current, then serves the queue.
    private final class ThreadBody {
        let name: String
        let queue: WorkQueue

        init(name: String, queue: WorkQueue) {
            self.name = name
            self.queue = queue
        }

        func run() {
            nameCurrentThread()
            SerialThread.markCurrent(queue)
            queue.runUntilClosed()
        }

        /// Glibc's `pthread_setname_np` is not visible to Swift (it needs `_GNU_SOURCE`); it
        /// writes the same file for another thread. Darwin names only the calling thread, as
        /// here. POSIX has no way, so the portable path names none (docs/embedding.md,
        /// "Platforms"). A name that cannot be set is no failure.
        private func nameCurrentThread() {
            #if os(Linux) && !PORTOLAN_PORTABLE
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            #elseif canImport(Darwin)
            _ = pthread_setname_np(name)
            #endif
        }
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

    /// The queue of the `SerialThread` the caller runs on, if it runs on one.
    private static var currentQueue: WorkQueue? {
        pthread_getspecific(currentQueueKey).map { Unmanaged<WorkQueue>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Marks the calling thread as blocked on `work` (nil: on nothing), so that work it queues
    /// here is known for what it is; returns what it was blocked on before.
    static func awaitWork(_ work: AwaitedWork?) -> AwaitedWork? {
        currentQueue?.exchangeAwaited(work)
    }

    /// The thread whose unit is calling out to a synchronous Swift function (`callingOut`), as the
    /// tasks that function starts inherit it.
    @TaskLocal private static var callerThread: ObjectIdentifier?

    /// Runs `body`, a synchronous Swift function that a unit on this thread calls out to (a
    /// function registered with a host, called from Lua). The thread is blocked until it returns,
    /// so a task it starts that queues work here before then (awaits the host) and a `body` that
    /// waits for that task would never end: such a queueing traps at once, as NIO's `wait()` on its
    /// own event loop does, with a message that says so. A task started with `Task.detached` is
    /// not marked.
    public func callingOut<T>(_ body: () throws -> T) rethrows -> T {
        queue.changeCallOutDepth(by: 1)
        defer { queue.changeCallOutDepth(by: -1) }
        return try Self.$callerThread.withValue(ObjectIdentifier(queue)) { try body() }
    }

    /// Runs `body` unmarked: a task it starts is not one a `callingOut` function started (an async
    /// Swift node that a route inside that function waits for is told apart, and fails cleanly).
    static func unmarked<T>(_ body: () throws -> T) rethrows -> T {
        try $callerThread.withValue(nil) { try body() }
    }

    /// Traps when the caller is a task started inside this thread's running `callingOut` body.
    private func trapCallBackFromCallOut() {
        guard Self.callerThread == ObjectIdentifier(queue), queue.isCallingOut else { return }
        preconditionFailure(
            "a Swift function called from Lua awaited its own Portolan host, whose thread is blocked in that function: "
                + "it would wait forever. Call the host after the function returns, or from a Task.detached it does not wait for.")
    }

    /// Runs `work` on the thread after everything submitted before it.
    public func submit(_ work: @escaping @Sendable () -> Void) {
        trapCallBackFromCallOut()
        queue.checkReentry(job: nil)
        queue.append(.closure(work))
    }

    /// Runs `work` on the thread after everything submitted before it, and returns its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        trapCallBackFromCallOut()
        let job = UnownedJob(job)
        queue.checkReentry(job: job)
        queue.append(.job(job, self.asUnownedSerialExecutor()))
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
    // @unchecked: `items` and `isClosed` are read and written with `mutex` locked.
    enum Work {
        case job(UnownedJob, UnownedSerialExecutor)
        case closure(@Sendable () -> Void)
    }

    // A POSIX mutex and condition (what Foundation's NSCondition wrapped), not `Synchronization.Mutex`:
    // ThreadSanitizer sees these, and it does not see a Mutex's contended path on Linux
    // (CONTRIBUTING.md, "Sanitizers"). Allocated, so that their addresses never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var items = FIFOQueue<Work>()
    private var isClosed = false
    /// The async work the thread is blocked on, if any (`ThreadWait.run`).
    private var awaited: AwaitedWork?
    /// How many `callingOut` bodies the thread is in.
    private var callOutDepth = 0

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func append(_ work: Work) {
        pthread_mutex_lock(mutex)
        items.append(work)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func changeCallOutDepth(by change: Int) {
        pthread_mutex_lock(mutex)
        callOutDepth += change
        pthread_mutex_unlock(mutex)
    }

    var isCallingOut: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return callOutDepth > 0
    }

    func exchangeAwaited(_ work: AwaitedWork?) -> AwaitedWork? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let previous = awaited
        awaited = work
        return previous
    }

    /// Called before work is queued, on the caller's thread: work that the thread's own awaited
    /// task queues could never run (the thread waits for that task), so the wait is told now.
    func checkReentry(job: UnownedJob?) {
        pthread_mutex_lock(mutex)
        let work = awaited
        pthread_mutex_unlock(mutex)
        work?.noteQueued(job: job)
    }

    func close() {
        pthread_mutex_lock(mutex)
        isClosed = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.isEmpty {
            if isClosed { return nil }
            pthread_cond_wait(condition, mutex)
        }
        return items.popFirst()
    }
}
