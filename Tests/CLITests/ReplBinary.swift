import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The `portolan` binary built next to the test bundle.
enum ReplBinary {
    /// The binary the shared finder located (PortolanBinary.swift: next to the test bundle, or
    /// `PORTOLAN_BINARY`).
    static var path: String {
        get throws {
            guard let path = PortolanBinary.path else {
                throw TestFailure("the portolan binary was not found next to the test bundle; build it or set PORTOLAN_BINARY")
            }
            return path
        }
    }

    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs the binary to its end with `input` on a pipe.
    static func run(_ arguments: [String], input: String) throws -> Run {
        let process = try start(arguments)
        process.send(input)
        process.closeInput()
        let status = process.wait()
        return Run(status: status, output: process.output, error: process.error)
    }

    static func start(_ arguments: [String]) throws -> Running {
        try Running(path: try path, arguments: arguments)
    }

    /// A running binary whose output is collected as it comes.
    final class Running: @unchecked Sendable {
        // @unchecked: the collected text is guarded by `lock`; the rest is set up once.
        private let process = Process()
        private let input = Pipe()
        private let lock = NSLock()
        private var collectedOutput = Data()
        private var collectedError = Data()
        private let group = DispatchGroup()

        init(path: String, arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardInput = input
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            collect(output.fileHandleForReading, isError: false)
            collect(error.fileHandleForReading, isError: true)
        }

        private func collect(_ handle: FileHandle, isError: Bool) {
            group.enter()
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.withLock {
                        if isError { collectedError.append(data) } else { collectedOutput.append(data) }
                    }
                }
                group.leave()
            }
        }

        var output: String { lock.withLock { String(decoding: collectedOutput, as: UTF8.self) } }
        var error: String { lock.withLock { String(decoding: collectedError, as: UTF8.self) } }

        func send(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        func closeInput() {
            try? input.fileHandleForWriting.close()
        }

        func interrupt() {
            process.interrupt()
        }

        /// Waits for the process to end and its output to be read; returns its exit status.
        func wait() -> Int32 {
            process.waitUntilExit()
            group.wait()
            return process.terminationStatus
        }

        func waitForOutput(timeout: TimeInterval = ReplTmux.patience, _ condition: (String) -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(output) {
                guard Date() < deadline else {
                    process.terminate()
                    throw TestFailure("timed out; output so far:\n\(output)\nerrors:\n\(error)")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }
}
