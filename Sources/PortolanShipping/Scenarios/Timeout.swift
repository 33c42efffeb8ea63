import PortolanLua
import Dispatch
import Lua

/// The clock that cuts scenarios. A serial queue of its own is served by a thread outside Swift's
/// cooperative pool, so it fires even when every pool thread is busy running Lua that never yields.
private let watchdog = DispatchQueue(label: "portolan.scenario-watchdog")

/// How a timed body ended.
enum TimedResult<T: Sendable>: Sendable {
    /// Within the limit.
    case finished(T)
    /// Past the limit, but it stopped when interrupted, within the grace: `T` says where it was.
    case cut(T)
    /// Past the limit and the grace: left running.
    case abandoned
}

private enum Arrival<T: Sendable>: Sendable {
    case value(T)
    case late
}

/// Runs `body` in its own task and gives up on it `limit` after it calls `start` (its unit of work
/// began on the host's thread: the time it waited for a busy machine is not the scenario's): the
/// Lua it runs is interrupted and the task cancelled, then it gets `grace` to stop before it is
/// abandoned.
///
/// The interruption is asked for again and again until the task ends: a request that arrives just
/// before the host starts a new top-level Lua call is dropped as stale (``LuaInterrupt``). An
/// abandoned task (a Swift function that never returns) is not waited for; nothing else shares
/// its host.
func withTimeout<T: Sendable>(
    _ limit: Duration, grace: Duration, interrupting interruption: LuaInterrupt,
    _ body: @escaping @Sendable (_ start: @escaping @Sendable () -> Void) async -> T
) async -> TimedResult<T> {
    let (arrivals, continuation) = AsyncStream.makeStream(of: Arrival<T>.self, bufferingPolicy: .bufferingNewest(4))
    let interrupter = DispatchSource.makeTimerSource(queue: watchdog)
    interrupter.setEventHandler {
        // Told first, then interrupted: the scenario's end (its value) can then never reach the
        // stream before the news that it was cut, however a busy machine schedules the two threads.
        continuation.yield(.late)
        interruption.request()   // from this thread: Lua stops at its next instruction
    }
    interrupter.schedule(deadline: .distantFuture)
    interrupter.activate()
    // Dispatch sources are thread-safe; the type just does not say so.
    nonisolated(unsafe) let timer = interrupter
    let start: @Sendable () -> Void = {
        timer.schedule(deadline: .now() + limit.dispatchInterval, repeating: .milliseconds(50))
    }
    let work = Task { await body(start) }
    let waiter = Task {
        let value = await work.value
        interrupter.cancel()
        continuation.yield(.value(value))
    }
    var iterator = arrivals.makeAsyncIterator()
    defer { continuation.finish() }
    if case .value(let value)? = await iterator.next() {
        return .finished(value)
    }
    work.cancel()   // wakes a script sleeping in portolan.wait
    let graceTimer = DispatchWorkItem { continuation.yield(.late) }
    watchdog.asyncAfter(deadline: .now() + grace.dispatchInterval, execute: graceTimer)
    let clock = ContinuousClock()
    let cut = clock.now
    // Skip the interrupter's repeated reports; stop at the task's value or the end of the grace.
    var stopped: T?
    while let arrival = await iterator.next() {
        if case .value(let value) = arrival {
            stopped = value
            break
        }
        if clock.now - cut >= grace { break }
    }
    graceTimer.cancel()
    _ = waiter
    return stopped.map { .cut($0) } ?? .abandoned
}
