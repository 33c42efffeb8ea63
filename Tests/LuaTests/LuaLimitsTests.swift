import Foundation
import Testing
@testable import Lua

@Suite struct LuaLimitsTests {
    let state: LuaState

    init() throws {
        state = try LuaState()
    }

    @Test func memoryCapGivesCleanErrorAndStateStaysUsable() throws {
        state.memoryLimit = state.memoryUsed + 1024 * 1024
        let table = #expect(throws: LuaError.self) {
            try state.run("local t = {} for i = 1, 1e9 do t[i] = i end")
        }
        #expect(table?.kind == .memory)
        #expect(table?.message == "not enough memory")
        let string = #expect(throws: LuaError.self) {
            try state.run("local s = 'x' while true do s = s .. s end")
        }
        #expect(string?.kind == .memory)
        #expect(state.stackTop == 0)
        #expect(state.memoryUsed <= state.memoryLimit ?? 0)
        #expect(try state.run("return ('still'):upper()") == ["STILL"])
    }

    @Test func memoryCapWhilePushingFromSwift() throws {
        state.memoryLimit = state.memoryUsed + 64 * 1024
        let big = LuaValue.string(String(repeating: "x", count: 1024 * 1024))
        let error = #expect(throws: LuaError.self) { try state.setGlobal("big", big) }
        #expect(error?.kind == .memory)
        let bigTable = LuaValue.array((0..<100_000).map { LuaValue.integer(Int64($0)) })
        #expect(throws: LuaError.self) { try state.setGlobal("bigTable", bigTable) }
        #expect(state.stackTop == 0)
        state.memoryLimit = nil
        try state.setGlobal("big", big)
        #expect(try state.run("return #big") == [.integer(1024 * 1024)])
    }

    @Test func instructionBudgetStopsInfiniteLoop() throws {
        state.instructionBudget = 100_000
        let error = #expect(throws: LuaError.self) { try state.run("while true do end", chunkName: "loop.lua") }
        #expect(error?.kind == .instructionLimit)
        #expect(error?.message == "loop.lua:1: instruction budget exceeded")
        #expect(state.stackTop == 0)
        // The next call gets a fresh budget.
        #expect(try state.run("local n = 0 for i = 1, 1000 do n = n + i end return n") == [500500])
    }

    @Test func budgetCannotBeSwallowedByPcall() throws {
        state.instructionBudget = 50_000
        let error = #expect(throws: LuaError.self) {
            try state.run("while true do pcall(function() while true do end end) end")
        }
        #expect(error?.kind == .instructionLimit)
    }

    @Test func budgetIsSharedThroughSwift() throws {
        // Lua -> Swift -> Lua: the nested call does not get a new budget.
        try state.register(name: "spin") { state, _ in
            try state.run("for i = 1, 30000 do end")
        }
        let error = #expect(throws: LuaError.self) {
            try state.withInstructionBudget(100_000) {
                try state.run("for i = 1, 20 do spin() end")
            }
        }
        #expect(error?.kind == .instructionLimit)
        #expect(state.instructionBudget == nil)
    }

    @Test func withInstructionBudgetPerCall() throws {
        let loop = try state.load("local n = ... for i = 1, n do end return n")
        try state.withInstructionBudget(10_000) { () throws -> Void in
            #expect(try state.call(loop, [1000]) == [1000])
            #expect(try state.call(loop, [1000]) == [1000])   // each call has its own budget
            #expect(throws: LuaError.self) { try state.call(loop, [1_000_000]) }
        }
        #expect(try state.call(loop, [1_000_000]) == [1_000_000])   // no budget outside
    }

    @Test func interruptFromLua() throws {
        try state.register(name: "pressCtrlC") { state, _ in
            state.interrupt.request()
            return []
        }
        let error = #expect(throws: LuaError.self) { try state.run("pressCtrlC() while true do end") }
        #expect(error?.kind == .interrupted)
        #expect(error?.message.hasSuffix("interrupted") == true)
        #expect(state.stackTop == 0)
        #expect(try state.run("return 'next line runs'") == ["next line runs"])
    }

    @Test func interruptFromAnotherThread() throws {
        let interrupt = state.interrupt
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            interrupt.request()
        }
        thread.start()
        let error = #expect(throws: LuaError.self) { try state.run("while true do end") }
        #expect(error?.kind == .interrupted)
    }

    @Test func staleInterruptIsDroppedAtNextCall() throws {
        state.interrupt.request()
        #expect(try state.run("local n = 0 for i = 1, 100000 do n = n + 1 end return n") == [100000])
    }
}

/// Every operation under a tight memory cap, at many cap sizes: each either works or throws, never aborts
/// (an unprotected raise would reach Lua's panic handler and kill the test process).
@Suite struct LuaMemoryStressTests {
    @Test func everyOperationSurvivesEveryCap() throws {
        for extra in stride(from: 0, through: 40_000, by: 1_000) {
            let state = try LuaState()
            state.memoryLimit = state.memoryUsed + extra
            _ = try? state.run("local t = {} for i = 1, 100 do t[i] = tostring(i) .. 'x' end return t")
            _ = try? state.setGlobal("value", ["key": "a string value", "list": [1, 2, 3, "four"]])
            _ = try? state.global("value")
            _ = try? state.register(name: "swift") { arguments in arguments + ["from swift"] }
            _ = try? state.run("return swift(1, 'two', { 3 })")
            _ = try? state.preload(name: "module", source: "return { answer = 42 }")
            _ = try? state.run("return require('module').answer")
            if let function = try? state.load("local x = coroutine.yield(...) return x .. '!'"),
               let coroutine = try? LuaCoroutine(function, in: state) {
                _ = try? coroutine.resume(["yielded", "values"])
                _ = try? coroutine.resume(["resumed"])
            }
            _ = try? state.run("error(string.rep('e', 100))")
            #expect(state.stackTop == 0)
            state.memoryLimit = nil
            #expect(try state.run("return 1 + 1") == [2], "cap +\(extra)")
        }
    }
}
