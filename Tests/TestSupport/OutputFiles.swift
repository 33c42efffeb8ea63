import Foundation

/// A child process's standard output and error as two files (nothing can block on a full pipe),
/// whose descriptors the test closes once the child has ended. Foundation's `Process` keeps the
/// handles it was given open for as long as it lives: a suite of hundreds of runs held a thousand
/// of them, and at about that length of /proc/self/fd Foundation's `Process.run` reads past its
/// buffer and crashes on Linux (swift-corelibs-foundation#5472).
public struct OutputFiles {
    private let stdoutPath: String
    private let stderrPath: String
    private let stdout: FileHandle
    private let stderr: FileHandle

    /// Makes (or empties) `<name>.out` and `<name>.err` in `directory`.
    public init(in directory: String, named name: String) throws {
        stdoutPath = directory + "/" + name + ".out"
        stderrPath = directory + "/" + name + ".err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    }

    /// Runs `process` to its end with no input and these files as its output, then closes them,
    /// whatever happened.
    public func run(_ process: Process, started: (Process) -> Void = { _ in }) async throws {
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        try await process.runToEnd(started: started)
    }

    /// What the child wrote to each.
    public func read() throws -> (stdout: String, stderr: String) {
        (try String(contentsOfFile: stdoutPath, encoding: .utf8), try String(contentsOfFile: stderrPath, encoding: .utf8))
    }
}
