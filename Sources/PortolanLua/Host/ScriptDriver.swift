import Lua
import Portolan

/// Running a script's main flow (an app file, a scenario, a REPL line) as one unit of work: a
/// coroutine that yields each `portolan.route`, `portolan.plan` and `portolan.wait` to the host,
/// which serves it on the spot and resumes the script with the answer.
extension HostCore {
    /// Runs `function(arguments…)` as a main flow and returns what it returns. Routes queued
    /// outside any route (from a plain coroutine, say) run before this returns.
    func drive(_ function: LuaValue, _ arguments: [LuaValue]) throws(HostError) -> [LuaValue] {
        defer { router?.drainQueue() }
        let coroutine = try coroutine(running: try module.runScript)
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
                input = try serve(ModuleRequest(request), in: coroutine)
                // Resuming drops a pending interrupt (a top-level Lua call), so one requested while the
                // script waited, or a cancelled task, stops it here.
                if let reason = stopReason(), reason != .timedOut {
                    let location = Self.waitLocation(of: coroutine).map { "\($0): " } ?? ""
                    throw HostError(location + "interrupted", isInterrupted: true)
                }
            }
        }
    }

    private func serve(_ request: ModuleRequest?, in coroutine: LuaCoroutine) throws(HostError) -> [LuaValue] {
        switch request {
        case .route(let value, let step):
            return route(luaDestination: value, step: step).luaValues
        case .plan(let value):
            do {
                switch try RouteTarget(lua: value) {
                case .destination(let destination):
                    return plan(destination).luaValues
                case .url(let url):
                    return plan(try resolve(url: url).get().destination).luaValues
                }
            } catch {
                return RouteResult.failure(error).luaValues
            }
        case .refresh:
            return refresh().luaValues
        case .back:
            return back().luaValues
        case .wait(let seconds):
            // portolan.wait checks its number at the script's line; a script that yields the host's
            // marker itself gets the refusal back as `nil, message`, at its own yield.
            guard let duration = ScriptNumbers.duration(seconds: seconds) else {
                return [.nil, .string(ScriptNumbers.waitError(seconds))]
            }
            if ThreadWait.sleep(until: .now + duration, wakeup: wakeup, stop: stopReason) != nil {
                let location = Self.waitLocation(of: coroutine).map { "\($0): " } ?? ""
                throw HostError(location + "interrupted while waiting", isInterrupted: true)
            }
            return []
        case nil:
            // A plain coroutine.yield in a main flow: nothing to serve, carry on.
            return []
        }
    }

    private func route(luaDestination value: LuaValue, step: LuaValue) -> RouteResult {
        do {
            let step = try RouteStep(lua: step)
            switch try RouteTarget(lua: value) {
            case .destination(let destination): return route(destination, step: step)
            case .url(let url): return route(resolved: try resolve(url: url).get(), step: step)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Where a suspended script or handler waits: its innermost line outside the `portolan`
    /// module (whose `portolan.wait` did the yielding).
    static func waitLocation(of coroutine: LuaCoroutine) -> String? {
        coroutine.luaFrames.first { !$0.hasPrefix("portolan:") }
    }

    /// Why a wait of this host should end now: an interrupt (Ctrl-C, a scenario's time limit),
    /// the cancellation of the task that asked for the unit, or of the running route.
    func stopReason() -> WaitStop? {
        if state.interrupt.isRequested { return .interrupted }
        if Task.isCancelled || router?.isRunningRouteCancelled == true { return .cancelled }
        return nil
    }
}
