import Synchronization

/// The serials of ``LuaState``s: one counter for the process, so that no two states, even one
/// opened after another closed at the same address, share one.
enum LuaStateSerial {
    private static let last = Atomic<UInt64>(0)

    static func next() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}
