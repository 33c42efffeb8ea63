import Testing
@testable import Lua

/// A handler's arguments pushed one by one straight onto its thread (``LuaCallArguments``):
/// references and plain values as they are, values that allocate under one protected encoding;
/// either way they arrive in order, and a failure leaves the coroutine startable.
@Suite struct LuaArgumentTests {
    let state: LuaState
    /// Returns how many arguments it got, then each of them.
    let echo: LuaReference

    init() throws {
        state = try LuaState()
        let made = try state.run("return function(...) return select('#', ...), ... end")
        try #require(made.count == 1)
        guard case .function(let function) = made[0] else { throw LuaError(.usage, "the echo is not a function") }
        echo = function
    }

    @Test func plainArgumentsArriveInOrder() throws {
        let pinned = try state.pin(.string("node"))
        let coroutine = try LuaCoroutine(in: state)
        let outcome = try coroutine.start(echo, count: 5) { (arguments) throws(LuaError) in
            try arguments.push(pinned)
            arguments.push(Int64(7))
            arguments.pushNil()
            arguments.push(true)
            try arguments.push(.number(0.5))
        }
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        #expect(values == [.integer(5), .string("node"), .integer(7), .nil, .boolean(true), .number(0.5)])
    }

    @Test func anAllocatingArgumentAfterPlainOnesKeepsTheOrder() throws {
        let pinned = try state.pin(.string("node"))
        let coroutine = try LuaCoroutine(in: state)
        let outcome = try coroutine.start(echo, count: 4) { (arguments) throws(LuaError) in
            try arguments.push(pinned)
            arguments.push(Int64(1))
            try arguments.push([.table([.string("k"): .integer(2)]), .string("url")])
        }
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
            try coroutine.start(echo, count: 2) { (arguments) throws(LuaError) in
                arguments.push(Int64(1))
                try arguments.push(foreign)
            }
        }
        #expect(error?.kind == .conversion)
        #expect(coroutine.canStart)
        let outcome = try coroutine.start(echo, count: 1) { (arguments) throws(LuaError) in arguments.push(Int64(3)) }
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        #expect(values == [.integer(1), .integer(3)])
    }

    @Test func fewerArgumentsThanCountedFailAndLeaveTheCoroutineStartable() throws {
        let coroutine = try LuaCoroutine(in: state)
        let error = #expect(throws: LuaError.self) {
            try coroutine.start(echo, count: 2) { (arguments) throws(LuaError) in arguments.push(true) }
        }
        #expect(error?.kind == .usage)
        #expect(coroutine.canStart)
        let outcome = try coroutine.start(echo, count: 1) { (arguments) throws(LuaError) in try arguments.push(.string("again")) }
        guard case .finished(let values) = outcome else { Issue.record("the echo yielded"); return }
        #expect(values == [.integer(1), .string("again")])
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
