import ArgumentParser
import Lua

/// A file a command reads whole (a bundle, a key, a snapshot), or the end of the command with
/// status 2 (the job is wrong) and `message` on standard error. The caller writes the message, so
/// that it never echoes what it must not (a key's text).
enum CommandInput {
    static func bytes(of path: String, orSay message: @autoclosure () -> String) throws -> [UInt8] {
        do {
            return try LuaState.chunkBytes(contentsOfFile: path)
        } catch {
            StandardStreams.errorLine(message())
            throw ExitCode(2)
        }
    }
}
