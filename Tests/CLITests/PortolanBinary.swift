import Foundation
import TestSupport

/// The built `portolan` executable, driven as a user would: arguments in, exit status and output out.
enum PortolanBinary {
    struct Run {
        /// The exit status, or the signal's number when `signalled`.
        var status: Int32
        /// Whether a signal ended the process (a trap, say) rather than an exit.
        var signalled = false
        var stdout: String
        var stderr: String

        /// The last line of standard output (the text report's closing line).
        var lastLine: String {
            stdout.split(separator: "\n").last.map(String.init) ?? ""
        }
    }

    /// The build's own (`BuiltProduct`); `PORTOLAN_BINARY` overrides it.
    static let path: String? = ProcessInfo.processInfo.environment["PORTOLAN_BINARY"] ?? BuiltProduct.path("portolan")

    /// Runs the binary in `directory` (by default the repository's root, where the example paths start).
    static func run(_ arguments: [String], in directory: String = Repository.root) async throws -> Run {
        guard let path else {
            throw TestFailure("the portolan binary was not found next to the test bundle; set PORTOLAN_BINARY")
        }
        return try await run(program: path, arguments, in: directory)
    }

    /// Another executable of the build, beside `portolan` (`contract-probe`), or nil.
    static func sibling(_ name: String) -> String? {
        guard let path else { return nil }
        let sibling = (path as NSString).deletingLastPathComponent + "/" + name
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil
    }

    /// Runs `program` in `directory`, its output in files; `environment` adds to (or overrides) the test's.
    static func run(
        program path: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]
    ) async throws -> Run {
        let scratch = try TemporaryDirectory("cli-output")
        defer { scratch.remove() }
        let output = try OutputFiles(in: scratch.root, named: "portolan")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try await output.run(process)
        let (stdout, stderr) = try output.read()
        return Run(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, stdout: stdout, stderr: stderr)
    }

    /// Runs the binary in a test's directory.
    static func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> Run {
        try await run(arguments, in: directory.root)
    }
}
