import Lua

/// A script that did not load or run: the message names the cause with its file:line.
public struct HostError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// Lua's traceback, when the error came from running Lua code.
    public let traceback: String?
    /// The input ended in the middle of a statement: a REPL should read another line.
    public let isIncompleteInput: Bool
    /// The script was interrupted (Ctrl-C, a scenario's time limit).
    public let isInterrupted: Bool

    public init(_ message: String, traceback: String? = nil, isIncompleteInput: Bool = false, isInterrupted: Bool = false) {
        self.message = message
        self.traceback = traceback
        self.isIncompleteInput = isIncompleteInput
        self.isInterrupted = isInterrupted
    }

    init(_ error: LuaError) {
        self.init(
            error.message, traceback: error.traceback, isIncompleteInput: error.isIncompleteInput,
            isInterrupted: error.kind == .interrupted)
    }

    /// Where an interrupted script was cut, as Lua's messages begin ("app.lua:2: "): the prefix of
    /// its "interrupted" (the shim's trip, `LuaRunner`'s wait). Empty when it was not interrupted
    /// or was cut outside the script's code.
    public var interruptedAt: String {
        let word = "interrupted"
        guard isInterrupted else { return "" }
        var end = message.endIndex
        while end > message.startIndex {
            end = message.index(before: end)
            if message[end...].hasPrefix(word) { return String(message[..<end]) }
        }
        return ""
    }

    public var description: String { message }
}
