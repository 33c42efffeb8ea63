import Synchronization

/// A route's outcome: the instructions it executed, or why it failed.
public typealias RouteResult = Result<[Instruction], RouteFailure>

/// A queued route request: await its result, or cancel it.
///
/// Cancelling a queued route fails it with `cancelled` before it starts; cancelling a running one
/// stops it before its next instruction.
public final class RouteTicket: Sendable {
    public let destination: Destination
    /// The URL the route was asked for, resolved; nil for a route to a destination.
    public let url: URLResolution?
    /// The step that asked for the route, if one did.
    public let step: RouteStep?
    /// Who asked for it.
    public let origin: RouteOrigin
    private let state = Mutex(State())
    /// What wakes a wait of the route when it is cancelled.
    private let wakeup: Wakeup?

    private struct State {
        var result: RouteResult?
        var waiters: [CheckedContinuation<RouteResult, Never>] = []
        var isCancelled = false
    }

    init(destination: Destination, url: URLResolution? = nil, step: RouteStep? = nil, origin: RouteOrigin = .app, wakeup: Wakeup? = nil) {
        self.wakeup = wakeup
        self.destination = destination
        self.url = url
        self.step = step
        self.origin = origin
    }

    /// Whether `other` asks for the same route: the same destination, by the same URL if any.
    func isSameRequest(as other: RouteTicket) -> Bool {
        destination == other.destination && url?.url == other.url?.url && step == other.step
    }

    /// Cancels the route and wakes its router's wait, if one waits.
    public func cancel() {
        state.withLock { $0.isCancelled = true }
        wakeup?.post()
    }

    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// The route's outcome, once it has run.
    public var result: RouteResult {
        get async {
            await withCheckedContinuation { continuation in
                let finished: RouteResult? = state.withLock { state in
                    if state.result == nil { state.waiters.append(continuation) }
                    return state.result
                }
                if let finished { continuation.resume(returning: finished) }
            }
        }
    }

    /// The route's outcome if it has run; nil while it waits or runs.
    public var outcome: RouteResult? {
        state.withLock { $0.result }
    }

    func finish(_ result: RouteResult) {
        let waiters = state.withLock { state in
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            waiter.resume(returning: result)
        }
    }
}
