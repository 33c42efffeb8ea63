import Testing
@testable import Lua

/// A handler's arguments pushed in one pass (references and plain values straight onto the stack),
/// falling back to one protected encoding as soon as one allocates: either way they arrive in
/// order, and a failure leaves nothing pushed.
@Suite struct LuaArgumentTests {
    let state: LuaState
    /// Returns how many arguments it got, then each of them.
    let echo: LuaValue

    init() throws {
        state = try LuaState()
        let made = try state.run("return function(...) return select('#', ...), ... end")
        try #require(made.count == 1)
        echo = made[0]
    }

    @Test func plainArgumentsArriveInOrder() throws {
        let pinned = try state.pin(.string("node"))
        let coroutine = try LuaCoroutine(in: state)
        let outcome = try coroutine.start(echo, passing: [
            .reference(pinned), .value(.integer(7)), .value(.nil), .value(.boolean(true)), .value(.number(0.5)),
        ])
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        #expect(values == [.integer(5), .string("node"), .integer(7), .nil, .boolean(true), .number(0.5)])
    }

    @Test func anAllocatingArgumentAfterPlainOnesKeepsTheOrder() throws {
        let pinned = try state.pin(.string("node"))
        let coroutine = try LuaCoroutine(in: state)
        let outcome = try coroutine.start(echo, passing: [
            .reference(pinned), .value(.integer(1)), .value(.table([.string("k"): .integer(2)])), .value(.string("url")),
        ])
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        try #require(values.count == 5)
        #expect(values[0] == .integer(4))
        #expect(values[1] == .string("node"))
        #expect(values[2] == .integer(1))
        #expect(values[3] == .table([.string("k"): .integer(2)]))
        #expect(values[4] == .string("url"))
    }

    @Test func aForeignReferenceFailsAndLeavesTheCoroutineStartable() throws {
        let other = try LuaState()
        let foreign = try other.pin(.string("elsewhere"))
        let coroutine = try LuaCoroutine(in: state)
        let error = #expect(throws: LuaError.self) {
            try coroutine.start(echo, passing: [.value(.integer(1)), .reference(foreign)])
        }
        #expect(error?.kind == .conversion)
        #expect(coroutine.canStart)
        let outcome = try coroutine.start(echo, passing: [.value(.integer(3))])
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        #expect(values == [.integer(1), .integer(3)])
    }

    @Test func aPassedDeadlineEndsTheCall() throws {
        let error = #expect(throws: LuaError.self) {
            try state.withDeadline(LuaState.monotonicNanoseconds - 1) { try state.run("while true do end") }
        }
        #expect(error?.kind == .timeLimit)
    }

    @Test func anOuterEarlierLimitStillHoldsInsideALaterDeadline() throws {
        let hourLater = LuaState.monotonicNanoseconds + LuaState.nanoseconds(of: .seconds(3600))
        let error = #expect(throws: LuaError.self) {
            try state.withTimeLimit(.milliseconds(20)) {
                try state.withDeadline(hourLater) { try state.run("while true do end") }
            }
        }
        #expect(error?.kind == .timeLimit)
    }

    @Test func limitsConvertToNanosecondsClamped() {
        #expect(LuaState.nanoseconds(of: .milliseconds(1500)) == 1_500_000_000)
        #expect(LuaState.nanoseconds(of: .seconds(3_000_000_000)) == Int64.max / 2)
    }
}
