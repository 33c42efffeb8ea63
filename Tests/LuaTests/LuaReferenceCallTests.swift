import Testing
@testable import Lua

/// `LuaState.call(_:with:)`: a registry function called with a registry argument in one C call.
@Suite struct LuaReferenceCallTests {
    @Test func passesThePinnedArgument() throws {
        let state = try LuaState()
        let observer = try #require(try state.run("return function(text) seen = text; count = (count or 0) + 1 end").first?.reference)
        let text = try state.pin(.string("enter b"))
        try state.call(observer, with: text)
        try state.call(observer, with: nil)
        #expect(try state.global("count") == .integer(2))
        #expect(try state.global("seen") == .nil)
        try state.call(observer, with: text)
        #expect(try state.global("seen") == .string("enter b"))
        #expect(state.stackTop == 0)
    }

    /// The longjmp rule: the error is caught by the shim's protected call and thrown in Swift.
    @Test func anErrorIsThrownNotRaised() throws {
        let state = try LuaState()
        let observer = try #require(try state.run("return function(text) error('refused ' .. text) end").first?.reference)
        let text = try state.pin(.string("leave a"))
        let error = #expect(throws: LuaError.self) { try state.call(observer, with: text) }
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains("refused leave a") == true)
        #expect(error?.traceback != nil)
        #expect(state.stackTop == 0)
    }

    @Test func theBudgetEndsALoop() throws {
        let state = try LuaState()
        let observer = try #require(try state.run("return function() while true do end end").first?.reference)
        let error = #expect(throws: LuaError.self) {
            try state.withInstructionBudget(10_000) { () throws(LuaError) in try state.call(observer, with: nil) }
        }
        #expect(error?.kind == .instructionLimit)
        #expect(state.stackTop == 0)
    }

    @Test func referencesFromAnotherStateAreRejected() throws {
        let first = try LuaState()
        let second = try LuaState()
        let foreign = try #require(try first.run("return function() end").first?.reference)
        let own = try #require(try second.run("return function() end").first?.reference)
        let foreignText = try first.pin(.string("x"))
        #expect((#expect(throws: LuaError.self) { try second.call(foreign, with: nil) })?.kind == .conversion)
        #expect((#expect(throws: LuaError.self) { try second.call(own, with: foreignText) })?.kind == .conversion)
        #expect(second.stackTop == 0)
    }

    /// A reference outliving its state is refused by a state opened after it, wherever that one lives.
    @Test func aClosedStatesReferenceIsRejected() throws {
        var stale: LuaReference?
        do {
            let closed = try LuaState()
            stale = try closed.run("return function() end").first?.reference
        }
        let state = try LuaState()
        let function = try #require(stale)
        #expect((#expect(throws: LuaError.self) { try state.call(function, with: nil) })?.kind == .conversion)
        #expect(state.stackTop == 0)
    }
}
