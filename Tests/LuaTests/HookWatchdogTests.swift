import Foundation
import Testing
@testable import Lua

/// A call's own thread runs unhooked until the watchdog arms it (`HookWatch.h`), when its budget is large
/// (over `HOOKWATCH_EXACT_BUDGET`). Each test gives a budget far above that and a loop far past it, which an
/// unhooked thread would finish: the call must fail all the same.
@Suite struct HookWatchdogTests {
    let state: LuaState
    /// Far above the budgets that are hooked from the first instruction.
    static let largeBudget = 20_000_000

    init() throws {
        state = try LuaState()
        state.instructionBudget = Self.largeBudget
    }

    @Test func largeBudgetStopsALoopOnTheCallsThread() throws {
        let error = #expect(throws: LuaError.self) {
            try state.run("local n = 0 for i = 1, 1e9 do n = n + 1 end return n", chunkName: "loop.lua")
        }
        #expect(error?.kind == .instructionLimit)
        #expect(error?.message == "loop.lua:1: instruction budget exceeded")
        #expect(state.instructionsUsed > Self.largeBudget)
        #expect(try state.run("return 'usable'") == ["usable"])
    }

    @Test func coroutineCreatedWhileUnhookedIsCounted() throws {
        // Lua copies the creator's hook into a new thread; the creator is unhooked here.
        let error = #expect(throws: LuaError.self) {
            try state.run("local co = coroutine.create(function() for i = 1, 1e8 do end end) return coroutine.resume(co)")
        }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func wrappedCoroutineIsCounted() throws {
        let error = #expect(throws: LuaError.self) {
            try state.run("local f = coroutine.wrap(function() for i = 1, 1e8 do end return 'done' end) return f()")
        }
        #expect(error?.kind == .instructionLimit)
    }

    /// The messages `lua5.4` itself prints for these lines.
    @Test func wrapAndCreateKeepTheLibrarysErrors() throws {
        state.instructionBudget = nil
        let create = #expect(throws: LuaError.self) { try state.run("coroutine.create(1)", chunkName: "c.lua") }
        #expect(create?.message == "c.lua:1: bad argument #1 to 'create' (function expected, got number)")
        let wrap = #expect(throws: LuaError.self) { try state.run("coroutine.wrap({})", chunkName: "w.lua") }
        #expect(wrap?.message == "w.lua:1: bad argument #1 to 'wrap' (function expected, got table)")
        let raised = #expect(throws: LuaError.self) {
            try state.run("coroutine.wrap(function() error('inside') end)()", chunkName: "r.lua")
        }
        #expect(raised?.message == "r.lua:1: r.lua:1: inside")   // liblua5.4's wrap adds the place again
    }

    @Test func pcallCannotSwallowTheArmedBudget() throws {
        let error = #expect(throws: LuaError.self) {
            try state.run("for j = 1, 1000 do pcall(function() for i = 1, 1e6 do end end) end")
        }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func hostCoroutineKeptByAScriptIsResumedOnlyBySwiftAndCounted() throws {
        // The thread of a host coroutine runs unhooked during its own resume; between calls it is hooked
        // again. A script that kept it cannot resume it while Swift holds it (HookedCoroutines.c), and
        // Swift's next resume is counted.
        let handler = try LuaCoroutine(
            try state.load("saved = coroutine.running() coroutine.yield() for i = 1, 1e8 do end"), in: state)
        guard case .yielded = try handler.resume() else {
            Issue.record("the handler did not yield")
            return
        }
        #expect(try state.run("return coroutine.resume(saved)") == [false, "cannot resume non-suspended coroutine"])
        let error = #expect(throws: LuaError.self) { try handler.resume() }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func timeLimitEndsAnUnhookedLoop() throws {
        state.instructionBudget = nil
        let error = #expect(throws: LuaError.self) {
            try state.withTimeLimit(.milliseconds(20)) { try state.run("while true do end") }
        }
        #expect(error?.kind == .timeLimit)
    }

    @Test func interruptArmsAnUnhookedLoop() throws {
        state.instructionBudget = nil
        let interrupt = state.interrupt
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            interrupt.request()
        }
        thread.start()
        let error = #expect(throws: LuaError.self) { try state.run("while true do end") }
        #expect(error?.kind == .interrupted)
    }

    @Test func aCallAfterTheWatchdogParkedIsStillArmed() throws {
        // Idle past its parking time (64 slices), the watchdog sleeps until a call starts.
        Thread.sleep(forTimeInterval: 0.3)
        let error = #expect(throws: LuaError.self) { try state.run("for i = 1, 1e9 do end") }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func smallBudgetsAreExactAsBefore() throws {
        state.instructionBudget = 100_000
        let error = #expect(throws: LuaError.self) { try state.run("while true do end") }
        #expect(error?.kind == .instructionLimit)
        // Hooked from the first instruction, in steps of 1000: the trip comes within one step of the budget.
        #expect(state.instructionsUsed > 100_000)
        #expect(state.instructionsUsed <= 101_000)
    }
}
