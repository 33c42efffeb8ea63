// Does ThreadSanitizer see Synchronization.Mutex on Linux?  A minimal reproduction.
//
// Two threads each add 1 to a counter 200,000 times, under a lock, in one of three ways:
// - `mutex`: Synchronization.Mutex as Portolan uses it (a value inside the lock, changed in withLock);
// - `annotated`: the same, plus TSan's own annotations inside the critical section, telling TSan
//   "this thread acquired the lock" on entry and "released it" on exit;
// - `pthread`: a pthread_mutex_t, whose lock and unlock TSan intercepts: the control.
// Each run prints the final count: 400,000 means no increment was lost, so the lock excluded.
// If `mutex` is reported and `annotated` is not, what TSan misses is the lock's
// acquire-and-release edge, not a missing lock: a false positive.
//
//   bash scripts/sanitize/mutex-under-tsan.sh        (builds with -sanitize=thread, runs both)
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

let threads = 2
let rounds = 200_000

/// The counter lives in an array's heap buffer, as Portolan's locked states (arrays, dictionaries,
/// structs holding them) do, so the race TSan may report is on ordinary heap memory.
let counter = Mutex<[Int]>([0])

/// The control: the same counter behind a pthread mutex.
final class PthreadCounter: @unchecked Sendable {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var value = [0]
    init() { pthread_mutex_init(lock, nil) }
    func increment() {
        pthread_mutex_lock(lock)
        value[0] += 1
        pthread_mutex_unlock(lock)
    }
    func read() -> Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return value[0]
    }
}
let pthreadCounter = PthreadCounter()

/// TSan's annotation functions, found at run time in its runtime (nil without TSan).
typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
func annotation(_ name: String) -> Annotation? {
    dlsym(nil, name).map { unsafeBitCast($0, to: Annotation.self) }
}
let tsanAcquire = annotation("__tsan_acquire"), tsanRelease = annotation("__tsan_release")
/// Any stable address stands for the lock in the annotations.
let lockToken = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

let mode = CommandLine.arguments.dropFirst().first ?? "mutex"

func work(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    for _ in 0..<rounds {
        switch mode {
        case "pthread":
            pthreadCounter.increment()
        case "annotated":
            counter.withLock { value in
                tsanAcquire?(lockToken)
                value[0] += 1
                tsanRelease?(lockToken)
            }
        default:
            counter.withLock { $0[0] += 1 }
        }
    }
    return nil
}

var running: [pthread_t] = []
for _ in 0..<threads {
    var thread = pthread_t()
    guard pthread_create(&thread, nil, { work($0) }, nil) == 0 else { fatalError("pthread_create failed") }
    running.append(thread)
}
for thread in running { pthread_join(thread, nil) }

let total = mode == "pthread" ? pthreadCounter.read() : counter.withLock { $0[0] }
print("\(mode): \(total) of \(threads * rounds)\(tsanAcquire == nil ? " (not under TSan)" : "")")
