/// The app's code a route calls, by where the route calls it: the one place that says what an
/// error it throws makes of the route (`RouteFailure(thrownBy:)`).
public enum FailedCall: Sendable, Hashable {
    /// A node's handler for an instruction (`enter`, `leave`, `switch`).
    case handler(Instruction)
    /// An interceptor (a script's interceptors run as one).
    case interceptor
    /// The guard of the node of this entry, on the route's way.
    case `guard`(Entry)
    /// The context task of a node on the destination.
    case contextTask(Entry)
    /// A node's `can_leave`, asked before the route runs anything.
    case canLeave(Entry)
    /// A redirect rule written as a function.
    case redirectRule
    /// The flow of this name, asked where a step leads (`Flow`).
    case flow(String)
}

extension RouteFailure {
    /// How an error thrown by the app's code fails the route: a `HandlerTimeout` as `timeout`, a
    /// `RouteStopped` (an interrupted or cancelled wait) as `cancelled`, and anything else as
    /// `handler_failed`, except a redirect rule's, which makes the URL `invalid`.
    public init(thrownBy call: FailedCall, _ error: any Error) {
        let kind: Kind
        let reason: String
        switch error {
        case let timeout as HandlerTimeout:
            kind = .timeout
            reason = call.didNotFinish.map { "\($0) in time: \(timeout.message)" } ?? timeout.message
        case let stop as RouteStopped:
            kind = .cancelled
            reason = stop.message
        default:
            kind = call == FailedCall.redirectRule ? .invalid : .handlerFailed
            reason = call.failed.map { "\($0): \(error)" } ?? String(describing: error)
        }
        self.init(kind, reason, instruction: call.instruction)
    }
}

extension FailedCall {
    /// The instruction the failure is at: the one whose handler ran, or the leave a `can_leave` guards.
    var instruction: Instruction? {
        switch self {
        case .handler(let instruction): instruction
        case .canLeave(let entry): .leave(entry)
        case .interceptor, .guard, .contextTask, .redirectRule, .flow: nil
        }
    }

    /// What a time-out message starts with ("… in time: why"); nil for a handler, whose own message says it.
    var didNotFinish: String? {
        switch self {
        case .handler: nil
        case .interceptor: "an interceptor did not decide"
        case .guard(let entry): "the guard of '\(entry.id)' did not decide"
        case .contextTask(let entry): "the context task of '\(entry)' did not finish"
        case .canLeave(let entry): "can_leave of '\(entry)' did not finish"
        case .redirectRule: "a redirect rule did not finish"
        case .flow(let name): "flow '\(name)' did not decide"
        }
    }

    /// What a failure's message starts with ("…: error"); nil when the error says it all.
    var failed: String? {
        switch self {
        case .handler, .redirectRule: nil
        case .interceptor: "an interceptor failed"
        case .guard(let entry): "the guard of '\(entry.id)' failed"
        case .contextTask(let entry): "the context task of '\(entry)' failed"
        case .canLeave(let entry): "can_leave of '\(entry)' failed"
        case .flow(let name): "flow '\(name)' failed"
        }
    }
}
