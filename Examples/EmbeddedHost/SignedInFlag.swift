import Synchronization

/// The app's session state, which the Lua guard reads through a Swift function; Lua calls Swift
/// synchronously, so it is a lock-protected flag rather than an actor.
final class SignedInFlag: Sendable {
    private let flag = Mutex(false)

    var value: Bool {
        get { flag.withLock { $0 } }
        set { flag.withLock { $0 = newValue } }
    }
}
