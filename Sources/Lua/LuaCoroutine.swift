import CLua
import CLuaShim

/// A Lua function run as a coroutine (a Lua thread), resumed from Swift.
///
/// A host runs a handler in one so the handler can wait by yielding: ``resume(_:)`` returns what it yielded,
/// and the host resumes it later with the values `coroutine.yield` should return.
///
/// ```swift
/// let handler = try LuaCoroutine(state.global("handler"), in: state)
/// if case .yielded(let request) = try handler.resume(["movie"]) {
///     // … later
///     _ = try handler.resume([.boolean(true)])
/// }
/// ```
///
/// Each resume is a top-level call with its own instruction budget (unless made from inside a running call).
/// Errors are thrown with the coroutine's traceback; the coroutine is then ``Status-swift.enum/failed``.
/// Like ``LuaReference``, it does not keep its state alive.
public final class LuaCoroutine {
    public enum Status: Hashable, Sendable {
        /// Not started, or yielded: ``LuaCoroutine/resume(_:)`` may be called.
        case suspended
        /// Running (resumed, and now inside Swift code it called).
        case running
        /// Returned.
        case finished
        /// Raised an error.
        case failed
    }

    /// How a resume ended, when it did not fail.
    public enum Outcome {
        /// `coroutine.yield(...)` was called with these values.
        case yielded([LuaValue])
        /// The function returned these values.
        case finished([LuaValue])
    }

    weak var state: LuaState?
    /// Keeps the Lua thread alive (threads are collectable objects).
    let threadReference: LuaReference
    let thread: OpaquePointer
    public private(set) var status = Status.suspended

    /// A suspended coroutine that will run `function` at the first ``resume(_:)``.
    public convenience init(_ function: LuaValue, in state: LuaState) throws(LuaError) {
        guard case .function = function else {
            throw LuaError(.usage, "a coroutine needs a function, not a \(function.typeName)")
        }
        try self.init(in: state)
        let L = state.thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try state.ensureStack(L, 2)
        try state.push(function, on: L)
        guard lua_checkstack(thread, 1) != 0 else { throw LuaError(.memory, "Lua stack overflow") }
        lua_xmove(L, thread, 1)   // no allocation: the slot was just checked
        status = .suspended
    }

    /// A coroutine with nothing to run yet (``Status-swift.enum/finished``): each
    /// ``start(_:count:pushing:)`` runs a function on its thread from the start.
    public init(in state: LuaState) throws(LuaError) {
        let L = state.thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try state.ensureStack(L, 4)
        if state.callDepth == 0 { state.drainUnreferences() }
        try state.check(cluashim_pnewthread(L), on: L)
        guard let thread = lua_tothread(L, -1) else { throw LuaError(.usage, "lua_newthread gave no thread") }
        self.thread = thread
        self.state = state
        threadReference = try state.reference(at: -1, on: L)
        cluashim_sethook(thread)   // hooks are per thread; never rely on inheritance for the budget
        status = .finished
    }

    /// Shows the thread to its scripts as Lua's main thread: in a sandboxed state their
    /// `coroutine.yield` raises "attempt to yield from outside a coroutine" there, and
    /// `coroutine.isyieldable` says false, as Lua says at a program's top level. For a host whose own
    /// chunks do all the yielding to Swift (a script's main flow, a handler), so that a script's
    /// stray yield fails as in Lua instead of reaching the host.
    public func showAsMainThread() throws(LuaError) {
        guard let state else { throw LuaError(.usage, "the Lua state of this coroutine is closed") }
        let L = state.thread
        try state.ensureStack(L, 2)
        try state.check(cluashim_pmarkmainlike(L, thread), on: L)
    }

    /// Whether ``start(_:count:pushing:)`` may run a function now: the coroutine finished its last one,
    /// and nothing ran on its thread since (a script that got hold of it with `coroutine.running()`
    /// may have resumed it as a coroutine of its own).
    public var canStart: Bool {
        var frame = lua_Debug()
        return status == .finished && lua_status(thread) == LUA_OK && lua_gettop(thread) == 0
            && lua_getstack(thread, 0, &frame) == 0
    }

    /// Runs `function(arguments…)` on the coroutine's thread from the start, as ``init(_:in:)``
    /// then ``resume(_:)`` would, with the function and its `count` arguments pushed straight
    /// onto the finished thread by `push` (``LuaCallArguments``): no array of arguments, no
    /// allocation, no move from the caller's stack for what allocates nothing. Only when
    /// ``canStart``; if `push` fails, nothing ran and the coroutine may start again.
    public func start(
        _ function: LuaReference, count: Int, pushing push: (LuaCallArguments) throws(LuaError) -> Void
    ) throws(LuaError) -> Outcome {
        guard let state else { throw LuaError(.usage, "the Lua state of this coroutine is closed") }
        guard canStart else { throw LuaError(.usage, "cannot start a \(status) coroutine") }
        let L = state.thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        do throws(LuaError) {
            try state.ensureStack(thread, count + 1)
            try state.pushReference(function, on: thread)
            try push(LuaCallArguments(state: state, thread: thread, caller: L))
            guard lua_gettop(thread) == CInt(count) + 1 else {
                throw LuaError(.usage, "a coroutine was started with \(lua_gettop(thread) - 1) arguments, not \(count)")
            }
        } catch {
            lua_settop(thread, 0)   // nothing ran: the thread is as it was
            throw error
        }
        status = .suspended
        return try run(count: CInt(count), caller: L, state: state)
    }

    /// The Lua functions on the coroutine's stack, innermost first, as `source:line` (Lua's short
    /// source names); C functions are left out. Where a suspended coroutine waits.
    public var luaFrames: [String] {
        var frames: [String] = []
        var source = [CChar](repeating: 0, count: 128)
        var line: CInt = 0
        var level: CInt = 0
        while true {
            let found = cluashim_frame(thread, level, &source, source.count, &line)
            if found < 0 { break }
            if found > 0 { frames.append("\(String(decoding: source.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(line)") }
            level += 1
        }
        return frames
    }

    /// Resumes the coroutine: starts it with `arguments`, or makes its pending `coroutine.yield` return them.
    public func resume(_ arguments: [LuaValue] = []) throws(LuaError) -> Outcome {
        try resume(count: arguments.count) { (state, L) throws(LuaError) in try state.push(arguments, on: L) }
    }

    private func resume(
        count: Int, pushing push: (LuaState, OpaquePointer) throws(LuaError) -> Void
    ) throws(LuaError) -> Outcome {
        guard let state else { throw LuaError(.usage, "the Lua state of this coroutine is closed") }
        guard status == .suspended else { throw LuaError(.usage, "cannot resume a \(status) coroutine") }
        let L = state.thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }

        // Values are built on the caller's thread (a pcall on a suspended coroutine is not allowed), then moved.
        try push(state, L)
        guard lua_checkstack(thread, CInt(count) + 1) != 0 else {
            throw LuaError(.memory, "Lua stack overflow")
        }
        lua_xmove(L, thread, CInt(count))
        return try run(count: CInt(count), caller: L, state: state)
    }

    /// Resumes the thread with the `count` arguments on top of its stack.
    private func run(count: CInt, caller L: OpaquePointer, state: LuaState) throws(LuaError) -> Outcome {
        status = .running
        var resultCount: CInt = 0
        // lua_resume is protected: errors are returned, not raised.
        let code = state.enterCall(on: thread) {
            lua_resume(thread, L, count, &resultCount)
        }
        if code == LUA_OK || code == LUA_YIELD, let swallowed = state.swallowedTrip() {
            status = .failed
            throw swallowed
        }
        switch code {
        case LUA_OK:
            status = .finished
            return .finished(try takeResults(resultCount, to: L, state: state))
        case LUA_YIELD:
            status = .suspended
            return .yielded(try takeResults(resultCount, to: L, state: state))
        default:
            status = .failed
            throw failure(code, to: L, state: state)
        }
    }

    @discardableResult
    public func resume(_ arguments: LuaValue...) throws(LuaError) -> Outcome {
        try resume(arguments)
    }

    /// Moves the results off the coroutine (they must go before the next resume) and converts them.
    private func takeResults(_ count: CInt, to L: OpaquePointer, state: LuaState) throws(LuaError) -> [LuaValue] {
        try state.ensureStack(L, Int(count) + 4)
        let base = lua_gettop(L)
        lua_xmove(thread, L, count)
        return try state.values(from: base + 1, on: L)
    }

    /// The error of a failed resume, with the traceback of the coroutine (its stack is kept after an error).
    private func failure(_ code: CInt, to L: OpaquePointer, state: LuaState) -> LuaError {
        guard lua_checkstack(L, 6) != 0 else { return LuaError(.memory, "Lua stack overflow") }
        lua_xmove(thread, L, 1)   // the error object
        var traceback: String?
        if (try? state.pushReference(threadReference, on: L)) != nil {
            if cluashim_ptraceback(L, -1, 0) == LUA_OK {
                traceback = state.stringValue(at: -1, on: L)
            }
            cluashim_pop(L, 2)
        }
        var error = state.popError(status: code, on: L, traceback: traceback)
        // A limit that refused an allocation (a time limit passed inside `string.rep`) has no
        // position: Lua gives memory errors none. The coroutine's stack, kept after the error,
        // says where the script stood, as the hook's own messages say it.
        if code == LUA_ERRMEM, error.kind != .memory, let frame = luaFrames.first {
            error.message = "\(frame): \(error.message)"
        }
        return error
    }
}
