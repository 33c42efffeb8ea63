import Synchronization

/// The serials of ``LuaState``s: one counter for the process, so that no two states, even one
/// opened after another closed at the same address, share one.
enum LuaStateSerial {
    private static let last = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}

extension LuaState {
    /// Refuses a reference that is not this state's: one made by another state, or by a closed one
    /// (its serial is never reused). By serial, since a weak load per reference cost more than
    /// the pushes of a hot call.
    func checkOwns(_ reference: LuaReference) throws(LuaError) {
        guard reference.stateSerial == serial else {
            throw LuaError(.conversion, "a Lua reference from another (or a closed) state cannot be used here")
        }
    }
}
