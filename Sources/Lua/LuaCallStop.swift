/// Thrown by a Swift function that Lua called, to stop the whole call it is part of as an interrupt
/// does, rather than raise an error the script could catch: the shim takes it as an interrupt
/// request the moment the Swift function has returned (never a longjmp through Swift), and every
/// Lua frame the error returns to raises it again, up to the host's protected call, which reports
/// ``LuaError/Kind/interrupted``. A host uses it to end a wait that sleeps inside a handler's call
/// (an interrupt, a cancellation, the handler's time limit): whoever threw it knows why, and
/// reports that instead.
public struct LuaCallStop: Error {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
