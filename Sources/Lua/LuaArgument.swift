import CLua
import CLuaShim

/// An argument of a call into Lua: a value converted as ``LuaValue``s are, or a value the
/// registry already holds, pushed by reference.
///
/// A string pushed as a value is hashed and looked up in Lua's string table on every call, under
/// a protected call since it may allocate; one pinned once with ``LuaState/pin(_:)`` and pushed
/// by reference costs a registry read and allocates nothing. Hot paths (a handler's node id, its
/// field) hand over references; everything else goes as values.
public enum LuaArgument {
    case value(LuaValue)
    case reference(LuaReference)

    /// Whether pushing it allocates nothing in Lua (so needs no protected call).
    var pushesWithoutAllocating: Bool {
        switch self {
        case .value(let value): value.pushesWithoutAllocating
        case .reference: true
        }
    }
}

extension LuaState {
    /// A registry reference to `value`, for pushing it again and again without converting it:
    /// ``LuaArgument/reference(_:)``. Released when the last Swift owner lets go.
    public func pin(_ value: LuaValue) throws(LuaError) -> LuaReference {
        let L = thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try push(value, on: L)
        return try reference(at: -1, on: L)
    }

    /// Pushes each argument; on failure nothing is left pushed. Values that allocate go all
    /// together under one protected call, references with them (``LuaValueEncoding``).
    func push(_ arguments: [LuaArgument], on L: OpaquePointer) throws(LuaError) {
        guard !arguments.allSatisfy(\.pushesWithoutAllocating) else {
            try ensureStack(L, arguments.count + 4)
            let top = lua_gettop(L)
            for argument in arguments {
                do {
                    switch argument {
                    case .value(let value): try push(value, on: L)
                    case .reference(let reference): try pushReference(reference, on: L)
                    }
                } catch {
                    lua_settop(L, top)
                    throw error
                }
            }
            return
        }
        try push(encoding: LuaValueEncoding(arguments, state: self), count: arguments.count, on: L)
    }
}
