import Testing
@testable import Lua

@Suite struct LuaCoroutineTests {
    let state: LuaState

    init() throws {
        state = try LuaState()
    }

    @Test func yieldResumeFinish() throws {
        let handler = try state.run("""
            return function(name)
              local answer = coroutine.yield("waiting for " .. name)
              local second = coroutine.yield(answer * 2, "again")
              return "done", second
            end
            """)[0]
        let coroutine = try LuaCoroutine(handler, in: state)
        #expect(coroutine.status == .suspended)

        guard case .yielded(let first) = try coroutine.resume(["login"]) else {
            Issue.record("expected a yield")
            return
        }
        #expect(first == ["waiting for login"])
        #expect(coroutine.status == .suspended)

        guard case .yielded(let second) = try coroutine.resume([21]) else {
            Issue.record("expected a yield")
            return
        }
        #expect(second == [42, "again"])

        guard case .finished(let results) = try coroutine.resume([true]) else {
            Issue.record("expected the end")
            return
        }
        #expect(results == ["done", true])
        #expect(coroutine.status == .finished)
        #expect(state.stackTop == 0)

        let error = #expect(throws: LuaError.self) { try coroutine.resume() }
        #expect(error?.kind == .usage)
    }

    @Test func errorInCoroutineHasMessageAndTraceback() throws {
        let handler = try state.run("""
            local function inner() error("handler broke") end
            return function()
              coroutine.yield(1)
              inner()
            end
            """, chunkName: "handler.lua")[0]
        let coroutine = try LuaCoroutine(handler, in: state)
        _ = try coroutine.resume()
        let error = #expect(throws: LuaError.self) { try coroutine.resume() }
        #expect(error?.kind == .runtime)
        #expect(error?.message == "handler.lua:1: handler broke")
        #expect(error?.traceback?.contains("handler.lua:4:") == true)
        #expect(coroutine.status == .failed)
        #expect(state.stackTop == 0)
        #expect(try state.run("return 'usable'") == ["usable"])
    }

    @Test func swiftFunctionCalledInsideCoroutine() throws {
        try state.register(name: "fetch") { state, arguments in
            // Runs on the coroutine's stack; calling back into Lua from here works too.
            let doubled = try state.call(state.load("return ... * 2"), arguments)
            return [.string("fetched \(doubled.first?.intValue ?? 0)")]
        }
        let handler = try state.load("local v = fetch(7) local w = coroutine.yield(v) return fetch(w)")
        let coroutine = try LuaCoroutine(handler, in: state)
        guard case .yielded(let yielded) = try coroutine.resume() else {
            Issue.record("expected a yield")
            return
        }
        #expect(yielded == ["fetched 14"])
        guard case .finished(let results) = try coroutine.resume([8]) else {
            Issue.record("expected the end")
            return
        }
        #expect(results == ["fetched 16"])
    }

    @Test func budgetAppliesInsideCoroutines() throws {
        state.instructionBudget = 10_000
        let coroutine = try LuaCoroutine(try state.load("coroutine.yield(1) while true do end"), in: state)
        _ = try coroutine.resume()
        let error = #expect(throws: LuaError.self) { try coroutine.resume() }
        #expect(error?.kind == .instructionLimit)
        #expect(coroutine.status == .failed)
        #expect(state.stackTop == 0)
        #expect(try state.run("return 2") == [2])
    }

    @Test func budgetAppliesToCoroutinesCreatedByLua() throws {
        state.instructionBudget = 10_000
        let error = #expect(throws: LuaError.self) {
            try state.run("local co = coroutine.wrap(function() while true do end end) co()")
        }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func memoryLimitAppliesInsideCoroutines() throws {
        state.memoryLimit = state.memoryUsed + 512 * 1024
        let coroutine = try LuaCoroutine(try state.load("local t = {} for i = 1, 1e8 do t[i] = i end"), in: state)
        let error = #expect(throws: LuaError.self) { try coroutine.resume() }
        #expect(error?.kind == .memory)
        state.memoryLimit = nil
        #expect(try state.run("return 3") == [3])
    }

    @Test func onlyFunctionsMakeCoroutines() throws {
        #expect(throws: LuaError.self) { try LuaCoroutine(42, in: state) }
    }
}
