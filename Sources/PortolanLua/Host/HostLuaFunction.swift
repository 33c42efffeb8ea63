import Lua

/// A Lua function the host keeps for the engine to call (a redirect rule written as a function, a
/// migration's `context`). The host owns it, and so the Lua reference, which must be released on
/// the host's thread.
final class HostLuaFunction: @unchecked Sendable {
    // @unchecked: the Lua function is called, and this object dropped, only on the host's thread.
    let function: LuaValue

    init(_ function: LuaValue) {
        self.function = function
    }
}
