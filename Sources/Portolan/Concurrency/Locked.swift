import Synchronization

/// A value behind a lock, shared between threads: what a closure handed to another thread (an
/// observer, a Swift function called from Lua, a waited-for task) writes and its owner reads.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) {
        storage = Mutex(value)
    }

    /// The value now. Read-only: `locked.value += 1` would read and write under two locks, with
    /// another thread's change in between lost; change it with `withLock`.
    public var value: Value {
        storage.withLock { $0 }
    }

    /// Reads and changes the value in one step, with no other thread in between.
    public func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try storage.withLock(body)
    }
}
