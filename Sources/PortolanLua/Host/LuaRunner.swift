import Lua
import Portolan

/// Runs Lua on the host's thread as the host's units of work need it: a script's main flow (an
/// app file, a scenario, a REPL line), whose yields the host serves, and the app's handlers,
/// guards, interceptors and redirect rules, each a direct call in a pooled Lua thread within the
/// handler time limit and instruction budget. Both kinds sleep through `portolan.wait` on the
/// host's `Wakeup`, so an interrupt or a cancellation ends a wait at once.
final class LuaRunner {
    let state: LuaState
    private let wakeup: Wakeup
    private let limits: HostConfiguration
    private var threads = HandlerThreads()
    /// How many handlers run now, one inside another's Swift call: the level of the next.
    private var handlerLevel = 0
    /// Instructions a main flow may run between two routes: the configuration's, or, while an app
    /// loads under a budget of its own (``PortolanHost/loadApp(_:instructionBudget:)``), that one.
    var scriptInstructionBudget: Int?
    /// Whether the route running now was cancelled (its ticket, or the task awaiting it).
    var isRouteCancelled: () -> Bool = { false }
    /// A handler's time limit: the app's `handler_timeout` once it declared one, else the host's.
    var handlerTimeout: () -> Duration
    /// The last handler time limit seen, in the count hook's nanoseconds: converted once, not per call.
    private var convertedTimeout: (limit: Duration, nanoseconds: Int64)?

    init(state: LuaState, wakeup: Wakeup, limits: HostConfiguration) {
        self.state = state
        self.wakeup = wakeup
        self.limits = limits
        scriptInstructionBudget = limits.scriptInstructionBudget
        handlerTimeout = { [limits] in limits.handlerTimeout }
    }

    // MARK: Main flows

    /// Runs `function(arguments…)` as a main flow in a thread of `runScript` (the module's), and
    /// returns what it returns; each request it yields is answered by `serve`.
    func drive(
        _ function: LuaValue, _ arguments: [LuaValue], in runScript: LuaValue,
        serving serve: (ModuleRequest?, LuaCoroutine) throws(HostError) -> [LuaValue]
    ) throws(HostError) -> [LuaValue] {
        // A thread of its own, never pooled: a main flow may be suspended while handlers run.
        let coroutine: LuaCoroutine
        do {
            coroutine = try LuaCoroutine(runScript, in: state)
            // Its yields to the host are the module's (`portolan.route`, `wait`): to the script, Lua's main thread.
            try coroutine.showAsMainThread()
        } catch {
            throw HostError(error)
        }
        var input = [function] + arguments
        while true {
            let outcome: LuaCoroutine.Outcome
            do {
                outcome = try resume(coroutine, input, budget: scriptInstructionBudget)
            } catch where error.kind == .conversion && coroutine.status == .suspended {
                // What the script yielded cannot cross to Swift (a cyclic or too deep destination):
                // the request fails as invalid, at the script's call, and the script goes on.
                input = RouteResult.failure(RouteFailure(.invalid, error.message)).luaValues
                continue
            } catch {
                throw HostError(error)
            }
            switch outcome {
            case .finished(let values):
                return values
            case .yielded(let request):
                input = try serve(ModuleRequest(request), coroutine)
                // Resuming drops a pending interrupt (a top-level Lua call), so one requested while the
                // script waited, or a cancelled task, stops it here.
                if let reason = stopReason(), reason != .timedOut {
                    throw HostError(Self.prefix(locating: coroutine) + "interrupted", isInterrupted: true)
                }
            }
        }
    }

    /// A main flow's `portolan.wait(seconds)`: it sleeps, unless an interrupt or a cancellation
    /// ends it first, which stops the flow. A number the host refuses is answered `nil, message`.
    func wait(seconds: Double, in coroutine: LuaCoroutine) throws(HostError) -> [LuaValue] {
        // portolan.wait checks its number at the script's line; a script that yields the host's
        // marker itself gets the refusal back, at its own yield.
        guard let duration = ScriptNumbers.duration(seconds: seconds) else {
            return [.nil, .string(ScriptNumbers.waitError(seconds))]
        }
        if ThreadWait.sleep(until: .now + duration, wakeup: wakeup, stop: stopReason) != nil {
            throw HostError(Self.prefix(locating: coroutine) + "interrupted while waiting", isInterrupted: true)
        }
        return []
    }

    // MARK: Handlers

    /// Runs `function(arguments…)` to its end as a handler, sleeping through its `portolan.wait`s
    /// within the handler time limit. A wait cut by an interrupt or a cancellation throws
    /// `RouteStopped`; the limits throw `HandlerTimeout` and `HandlerError`.
    func runHandler(_ function: LuaValue, _ arguments: [LuaValue]) throws -> [LuaValue] {
        guard case .function(let reference) = function else {
            throw HandlerError("a coroutine needs a function, not a \(function.typeName)")
        }
        return try runHandler(reference, count: arguments.count, timeLimit: handlerTimeout()) { (stack) throws(LuaError) in
            try stack.push(arguments)
        }
    }

    /// ``runHandler(_:_:)`` with its `count` arguments pushed one by one by `push`, straight onto
    /// the handler's thread (a handler's pinned strings and integers: no array, no conversion),
    /// under `timeLimit` (a node's handler knows its router's).
    func runHandler(
        _ function: LuaReference, count: Int, timeLimit: Duration, pushing push: (LuaCallArguments) throws(LuaError) -> Void
    ) throws -> [LuaValue] {
        // On the count hook's clock, read once: the hook checks it while the handler runs.
        let deadline = LuaState.monotonicNanoseconds + nanoseconds(of: timeLimit)
        let coroutine = try threads.thread(forLevel: handlerLevel, in: state)
        let level = handlerLevel
        handlerLevel += 1
        var finished = false
        defer {
            handlerLevel = level
            if !finished { threads.drop(from: level) }
        }
        var started = false
        while true {
            let outcome: LuaCoroutine.Outcome
            do {
                // The time limit holds while the handler runs too (the count hook checks it), not only
                // while it waits: a handler busy in a long C library call stops at its limit.
                outcome = try state.withDeadline(deadline) { () throws(LuaError) in
                    try state.withInstructionBudget(limits.handlerInstructionBudget) { () throws(LuaError) in
                        // The first run starts the handler; after a wait, it goes on.
                        started ? try coroutine.resume([]) : try coroutine.start(function, count: count, pushing: push)
                    }
                }
                started = true
            } catch {
                if error.kind == .interrupted { throw RouteStopped(.interrupted) }
                if error.kind == .timeLimit {
                    throw HandlerTimeout("the handler did not finish within \(timeLimit): \(error.message)")
                }
                throw HandlerError(error.message)
            }
            switch outcome {
            case .finished(let values):
                finished = true
                return values
            case .yielded(let values):
                guard case .wait(let seconds)? = ModuleRequest(values) else {
                    throw HandlerError("a handler yielded; only portolan.wait may suspend a handler")
                }
                guard let duration = ScriptNumbers.duration(seconds: seconds) else {
                    throw HandlerError(ScriptNumbers.waitError(seconds))
                }
                let now = ContinuousClock.now
                let wakeUp = now + duration
                let limitEnds = now + .nanoseconds(deadline - LuaState.monotonicNanoseconds)
                if let reason = ThreadWait.sleep(until: min(wakeUp, limitEnds), wakeup: wakeup, stop: stopReason) {
                    throw RouteStopped(reason, at: Self.waitLocation(of: coroutine))
                }
                guard wakeUp <= limitEnds else {
                    throw HandlerTimeout("the handler did not finish within \(timeLimit)")
                }
            }
        }
    }

    private func nanoseconds(of timeLimit: Duration) -> Int64 {
        if let convertedTimeout, convertedTimeout.limit == timeLimit { return convertedTimeout.nanoseconds }
        let nanoseconds = LuaState.nanoseconds(of: timeLimit)
        convertedTimeout = (timeLimit, nanoseconds)
        return nanoseconds
    }

    // MARK: Stopping

    /// Why a wait of this host should end now: an interrupt (Ctrl-C, a scenario's time limit),
    /// the cancellation of the task that asked for the unit, or of the running route.
    func stopReason() -> WaitStop? {
        if state.interrupt.isRequested { return .interrupted }
        if Task.isCancelled || isRouteCancelled() { return .cancelled }
        return nil
    }

    private func resume(_ coroutine: LuaCoroutine, _ input: [LuaValue], budget: Int?) throws(LuaError) -> LuaCoroutine.Outcome {
        try state.withInstructionBudget(budget) { () throws(LuaError) in try coroutine.resume(input) }
    }

    /// Where a suspended script or handler waits: its innermost line outside the `portolan`
    /// module (whose `portolan.wait` did the yielding).
    static func waitLocation(of coroutine: LuaCoroutine) -> String? {
        coroutine.luaFrames.first { !$0.hasPrefix("portolan:") }
    }

    private static func prefix(locating coroutine: LuaCoroutine) -> String {
        waitLocation(of: coroutine).map { "\($0): " } ?? ""
    }
}
