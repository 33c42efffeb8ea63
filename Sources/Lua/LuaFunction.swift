import CLua
import CLuaShim

/// A Swift function callable from Lua. It receives the state (use it instead of capturing the state, which
/// would keep it alive forever) and the arguments; it returns the results.
///
/// Throwing raises a Lua error in the calling script, catchable with `pcall`: a ``LuaError`` coming from Lua
/// code (runtime, memory, budget, interrupt, syntax) is raised again with its message unchanged; any other
/// error is raised as a string, prefixed with the caller's position like `error()` does.
public typealias LuaFunction = (LuaState, [LuaValue]) throws -> [LuaValue]

/// What the Lua userdata behind a Swift function retains.
final class LuaFunctionBox {
    let body: LuaFunction

    init(_ body: @escaping LuaFunction) {
        self.body = body
    }
}

extension LuaState {
    /// A Lua function that calls `body`.
    public func function(_ body: @escaping LuaFunction) throws(LuaError) -> LuaValue {
        let L = thread
        try ensureStack(L, 4)
        let box = Unmanaged.passRetained(LuaFunctionBox(body)).toOpaque()
        let status = cluashim_ppushswiftfunction(L, box)
        guard status == LUA_OK else {
            Unmanaged<LuaFunctionBox>.fromOpaque(box).release()   // the userdata never took ownership
            throw popError(status: status, on: L, traceback: nil)
        }
        defer { cluashim_pop(L, 1) }
        return try value(at: -1, on: L)
    }

    /// A Lua function that calls `body`, for functions that do not need the state.
    public func function(_ body: @escaping ([LuaValue]) throws -> [LuaValue]) throws(LuaError) -> LuaValue {
        try function { (_: LuaState, arguments: [LuaValue]) in try body(arguments) }
    }

    /// Sets global `name` to a Lua function that calls `body`.
    public func register(name: String, _ body: @escaping LuaFunction) throws(LuaError) {
        try setGlobal(name, function(body))
    }

    /// Sets global `name` to a Lua function that calls `body`, for functions that do not need the state.
    public func register(name: String, _ body: @escaping ([LuaValue]) throws -> [LuaValue]) throws(LuaError) {
        try setGlobal(name, function(body))
    }

    // MARK: Entry points from C

    /// Called by the shim's trampoline (a lua_CFunction). Must not raise and must not let a Lua error cross
    /// it: everything below is protected, and an error is returned to the trampoline, which raises it after
    /// this frame is gone.
    static func callFromLua(_ L: OpaquePointer?, _ box: UnsafeMutableRawPointer?) -> CInt {
        guard let L else { return CInt(CLUASHIM_SWIFT_RERAISE) }   // unreachable: Lua always passes its state
        guard let box else {
            pushErrorMessage("Swift function is no longer available", on: L)
            return CInt(CLUASHIM_SWIFT_ERROR)
        }
        let function = Unmanaged<LuaFunctionBox>.fromOpaque(box).takeUnretainedValue()
        guard let state = LuaState.owner(of: L) else {
            // A finalizer calling Swift while the state closes: the LuaState is mid-deinit and unusable.
            pushErrorMessage("the Lua state is closing", on: L)
            return CInt(CLUASHIM_SWIFT_ERROR)
        }
        return state.invoke(function, on: L)
    }

    /// Called by the __gc of a Swift function's userdata, and never twice for one box.
    static func releaseFunction(_ box: UnsafeMutableRawPointer?) {
        guard let box else { return }
        Unmanaged<LuaFunctionBox>.fromOpaque(box).release()
    }

    private func invoke(_ function: LuaFunctionBox, on L: OpaquePointer) -> CInt {
        let caller = thread
        thread = L   // a coroutine may be calling: its stack is the one to use now
        callDepth += 1
        defer {
            thread = caller
            callDepth -= 1
        }
        do {
            let arguments = try values(from: 1, on: L)
            let results = try function.body(self, arguments)
            try push(results, on: L)
            return CInt(results.count)
        } catch let error as LuaError {
            LuaState.pushErrorMessage(error.message, on: L)
            return CInt(error.kind.cameFromLua ? CLUASHIM_SWIFT_RERAISE : CLUASHIM_SWIFT_ERROR)
        } catch {
            LuaState.pushErrorMessage(String(describing: error), on: L)
            return CInt(CLUASHIM_SWIFT_ERROR)
        }
    }

    /// Leaves exactly one value on top: the message, or the memory error that prevented pushing it.
    /// Either way the trampoline has an error object to raise.
    private static func pushErrorMessage(_ message: String, on L: OpaquePointer) {
        _ = lua_checkstack(L, 3)   // a C function starts with LUA_MINSTACK free slots; this is belt and braces
        var message = message
        _ = message.withUTF8 { cluashim_ppushlstring(L, $0.baseAddress, $0.count) }
    }
}

extension LuaError.Kind {
    /// Errors whose message Lua already positioned (`app.lua:3: …`), raised again unchanged.
    var cameFromLua: Bool {
        switch self {
        case .syntax, .runtime, .memory, .messageHandler, .instructionLimit, .interrupted, .timeLimit: true
        case .conversion, .file, .usage: false
        }
    }
}
