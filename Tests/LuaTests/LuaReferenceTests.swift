import Testing
@testable import Lua

@Suite struct LuaReferenceTests {
    @Test func referenceKeepsFunctionAliveAfterGC() throws {
        let state = try LuaState()
        let counter = try state.run("""
            local n = 0
            return function() n = n + 1 return n end
            """)[0]
        // Nothing in Lua refers to the closure any more; only the Swift reference does.
        try state.collectGarbage()
        try state.collectGarbage()
        #expect(try counter.reference?.call() == [1])
        #expect(try counter.reference?.call() == [2])
        #expect(state.stackTop == 0)
    }

    @Test func droppedReferencesAreReleased() throws {
        let state = try LuaState()
        try state.run("function make() return function() end end")
        for _ in 0..<1000 { _ = try state.call(global: "make") }
        try state.collectGarbage()
        let before = state.memoryUsed
        for _ in 0..<1000 { _ = try state.call(global: "make") }
        try state.collectGarbage()
        // Released references let the closures go: memory does not grow by a thousand closures.
        #expect(state.memoryUsed < before + 16 * 1024)
        // Each top-level call releases what Swift dropped before it: the queue never piles up.
        #expect(state.pendingUnreferences.count <= 2)
    }

    @Test func referenceOutlivingItsStateIsInert() throws {
        var function: LuaValue = .nil
        do {
            let state = try LuaState()
            function = try state.run("return function() return 1 end")[0]
            #expect(function.reference?.isValid == true)
        }
        #expect(function.reference?.isValid == false)
        #expect(throws: LuaError.self) { try function.reference?.call() }
        function = .nil   // deinit after close must not crash
    }

    @Test func referenceFromAnotherStateIsRejected() throws {
        let first = try LuaState()
        let second = try LuaState()
        let function = try first.run("return print")[0]
        let error = #expect(throws: LuaError.self) { try second.call(function) }
        #expect(error?.kind == .conversion)
        #expect(second.stackTop == 0)
    }

    @Test func sameLuaObjectGivesEqualReferences() throws {
        let state = try LuaState()
        let pair = try state.run("local f = function() end return f, f, function() end")
        try #require(pair.count == 3)
        #expect(pair[0] == pair[1])
        #expect(pair[0] != pair[2])
        #expect(Set(pair).count == 2)
    }
}
