import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Lua

/// Pattern bombs in the sandbox (issue 10, item 3): liblua5.4's matcher runs in C, where the count hook never
/// looks, so `("a"):rep(400):find(".-.-.-b")` ran for 15 s whatever the budget. The bounded functions charge
/// every step to the instruction budget and poll the interrupt.
@Suite struct PatternBudgetTests {
    /// The brief's bomb: some four billion steps before it fails to match.
    static let bomb = #"("a"):rep(400):find(".-.-.-b")"#

    /// Bombs of each function and each costly kind of step, as Lua expressions.
    static let bombs = [
        bomb,
        #"("a"):rep(400):match(".-.-.-b")"#,
        #"("a"):rep(400):gsub(".-.-.-b", "")"#,
        #"(function() for _ in ("a"):rep(400):gmatch(".-.-.-b") do end end)()"#,
        #"("("):rep(200000):find("%b()")"#,                   // each start scans to the end
        #"("a"):rep(200000):find("(a*)%1b")"#,                // long back-references
        #"("a"):rep(1000000):find(("a"):rep(500000) .. "b", 1, true)"#,   // a plain find of a long near miss
    ]

    @Test(arguments: bombs) func aBombExhaustsTheBudgetAndTheStateLivesOn(_ expression: String) throws {
        let state = try LuaState()
        state.instructionBudget = 10_000_000
        let started = threadCPUSeconds()
        let error = #expect(throws: LuaError.self) { try state.run("return \(expression)", chunkName: "=bomb.lua") }
        let seconds = threadCPUSeconds() - started
        #expect(error?.kind == .instructionLimit, "\(expression): \(String(describing: error))")
        #expect(error?.message == "bomb.lua:1: instruction budget exceeded")
        // Ten million steps take well under a second; without the budget the first one runs 15 s.
        #expect(seconds < 5, "\(expression): \(seconds) s of CPU")
        #expect(state.stackTop == 0)
        #expect(try state.run(#"return ("a"):rep(400):find("a+$")"#) == [1, 400])
    }

    @Test func theMethodFormAndTheStringTableBothAreBounded() throws {
        let state = try LuaState()
        state.instructionBudget = 1_000_000
        for call in [Self.bomb, #"string.find(("a"):rep(400), ".-.-.-b")"#] {
            let error = #expect(throws: LuaError.self) { try state.run("return \(call)") }
            #expect(error?.kind == .instructionLimit, "\(call)")
        }
    }

    @Test func pcallCannotSwallowIt() throws {
        let state = try LuaState()
        state.instructionBudget = 1_000_000
        for script in [
            "local ok = pcall(string.find, ('a'):rep(400), '.-.-.-b') return 'swallowed', ok",
            "local ok = pcall(function() return \(Self.bomb) end) return 'swallowed', ok",
            "while true do pcall(string.gsub, ('a'):rep(400), '.-.-.-b', '') end",
        ] {
            let error = #expect(throws: LuaError.self) { try state.run(script) }
            #expect(error?.kind == .instructionLimit, "\(script)")
        }
    }

    @Test func shortCallsAreChargedToo() throws {
        // Each call takes about 600 steps, under one batch: the remainder is charged as the call returns, or a
        // loop of such calls would pay only for its own few instructions, a hundred times fewer.
        let state = try LuaState()
        state.instructionBudget = 1_000_000
        let error = #expect(throws: LuaError.self) {
            try state.run("calls = 0 local s = ('a'):rep(300) while true do calls = calls + 1 s:find('b+') end")
        }
        #expect(error?.kind == .instructionLimit)
        let calls = try #require(try state.global("calls").intValue)
        #expect(calls > 1000 && calls < 2000, "\(calls) calls")
    }

    @Test func theInterruptStopsABombWithoutABudget() throws {
        let state = try LuaState()
        let interrupt = state.interrupt
        let finished = Finished()
        // Asks again and again: a request made before the call starts is dropped when it starts.
        let presser = Thread {
            while !finished.flag.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 0.05)
                interrupt.request()
            }
        }
        presser.start()
        defer { finished.flag.store(true, ordering: .releasing) }
        for expression in [Self.bomb, #"("a"):rep(400):gsub(".-.-.-b", "")"#] {
            let error = #expect(throws: LuaError.self) { try state.run("return \(expression)", chunkName: "=bomb.lua") }
            #expect(error?.kind == .interrupted, "\(expression)")
            #expect(error?.message == "bomb.lua:1: interrupted")
        }
    }

    @Test func ordinaryMatchingFitsAnOrdinaryBudget() throws {
        let state = try LuaState()
        state.instructionBudget = 100_000
        let results = try state.run("""
            local id = ("/users/42"):match("^/(%w+)/(%d+)$")
            local words = 0
            for _ in ("the quick brown fox"):gmatch("%a+") do words = words + 1 end
            return id, words, (("a,b,c"):gsub(",", ";"))
            """)
        #expect(results == ["users", 4, "a;b;c"])
    }
}

/// Tells the thread pressing Ctrl-C that the test is over.
private final class Finished: Sendable {
    let flag = Atomic<Bool>(false)
}
