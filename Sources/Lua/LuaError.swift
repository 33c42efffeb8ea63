/// An error from Lua, or from moving values between Lua and Swift.
///
/// The state that raised it stays usable: every operation leaves the stack as it found it.
public struct LuaError: Error, Hashable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The chunk does not compile (`LUA_ERRSYNTAX`).
        case syntax
        /// A runtime error: `error(...)`, a failed operation, or an error thrown by a Swift function.
        case runtime
        /// The memory limit was reached, or the system is out of memory (`LUA_ERRMEM`).
        case memory
        /// The message handler itself failed (`LUA_ERRERR`), usually for lack of memory for the traceback.
        case messageHandler
        /// The call used up its instruction budget.
        case instructionLimit
        /// The call was interrupted (``LuaInterrupt``).
        case interrupted
        /// The call ran past its time limit (``LuaState/withTimeLimit(_:_:)``).
        case timeLimit
        /// A value could not be moved between Lua and Swift: a cyclic or too deep table, a reference from
        /// another state.
        case conversion
        /// A file could not be read.
        case file
        /// The API was used in a way that cannot work: resuming a finished coroutine, using a closed state.
        case usage
    }

    public var kind: Kind
    /// The error message, as Lua shows it (for a chunk error, `app.lua:12: message`).
    public var message: String
    /// Lua's `stack traceback:` lines, when the error came from running Lua code.
    public var traceback: String?

    public init(_ kind: Kind, _ message: String, traceback: String? = nil) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
    }

    /// A syntax error at the end of the input: the chunk is incomplete and a REPL should read another line
    /// (the `<eof>` test of lua.c).
    public var isIncompleteInput: Bool {
        kind == .syntax && message.hasSuffix("<eof>")
    }

    public var description: String {
        guard let traceback, !traceback.isEmpty else { return message }
        return message + "\n" + traceback
    }
}
