import CLua
import CLuaShim

/// Keeps a Lua value alive from Swift: a slot in the state's registry (`luaL_ref`), released when the last
/// Swift owner lets go.
///
/// A reference does not keep its state alive: after the state is closed the reference is inert, and using it
/// throws ``LuaError/Kind/usage``. Two references are equal when they denote the same Lua object.
public final class LuaReference: Hashable {
    /// Weak: Swift functions stored in Lua hold values, which hold references; a strong state here would be
    /// a cycle through the registry.
    weak var state: LuaState?
    let reference: CInt
    /// Its state's ``LuaState/serial``: equal to a live state's only if the reference is that state's.
    let stateSerial: UInt64
    /// lua_topointer of the value: stable while the reference keeps the object alive (Lua's collector does
    /// not move objects).
    let identity: UnsafeRawPointer?

    init(state: LuaState, reference: CInt, identity: UnsafeRawPointer?) {
        self.state = state
        self.reference = reference
        stateSerial = state.serial
        self.identity = identity
    }

    deinit {
        // Never touches Lua here: deinit can run in the middle of a conversion or a finalizer.
        state?.releaseReference(reference)
    }

    /// Whether the state this value belongs to is still open.
    public var isValid: Bool { state != nil }

    /// Calls the referenced value (a function, or anything with `__call`).
    @discardableResult
    public func call(_ arguments: [LuaValue] = []) throws(LuaError) -> [LuaValue] {
        guard let state else { throw LuaError(.usage, "the Lua state of this reference is closed") }
        return try state.call(.function(self), arguments)
    }

    @discardableResult
    public func call(_ arguments: LuaValue...) throws(LuaError) -> [LuaValue] {
        try call(arguments)
    }

    public static func == (lhs: LuaReference, rhs: LuaReference) -> Bool {
        lhs === rhs || (lhs.state === rhs.state && lhs.identity != nil && lhs.identity == rhs.identity)
    }

    public func hash(into hasher: inout Hasher) {
        if let identity { hasher.combine(identity) } else { hasher.combine(ObjectIdentifier(self)) }
    }
}
