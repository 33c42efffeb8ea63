import ArgumentParser
import PortolanLua

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan test`: runs scenario files, one fresh app per scenario, and reports each case.
struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenario files and report each scenario.",
        discussion: """
            A scenario file calls scenario(name, fn) once per case; expect(actual, expected [, message]) \
            compares deeply and shows the difference, skip(reason) skips the running case. Each scenario \
            runs alone in a fresh Lua state with the app loaded.

            Exit status: 0 when no scenario failed, 1 when one did.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, tap, junit
    }

    @Option(help: ArgumentHelp("An app script loaded before each scenario.", valueName: "app.lua"))
    var app: String?

    @Option(help: "The report format: text, tap (TAP 14) or junit (JUnit XML).")
    var format: Format = .text

    @Option(help: ArgumentHelp("How long one scenario may run before it is cut and fails.", valueName: "seconds"))
    var timeout: Double = 30

    @Argument(help: ArgumentHelp("Scenario files to run, in order.", valueName: "file.lua"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else {
            throw ValidationError("Give at least one scenario file.")
        }
        for file in files where !Self.isReadableFile(file) {
            throw ValidationError("No such scenario file: \(file)")
        }
        if let app, !Self.isReadableFile(app) {
            throw ValidationError("No such app file: \(app)")
        }
        guard timeout.isFinite, timeout > 0 else {
            throw ValidationError("--timeout must be a positive number of seconds, not \(timeout).")
        }
    }

    func run() async throws {
        let runner = ScenarioRunner(options: .init(app: app, timeout: .milliseconds(Int64(timeout * 1000))))
        var reporter = (ScenarioFormat(rawValue: format.rawValue) ?? .text).makeReporter()
        var summary = ScenarioSummary()
        if let text = reporter.begin() { Self.write(text) }
        await runner.run(files: files) { result in
            summary.add(result)
            if let text = reporter.report(result) { Self.write(text) }
        }
        if let text = reporter.finish(summary) { Self.write(text) }
        if summary.failed > 0 {
            throw ExitCode(1)
        }
    }

    /// Writes a report line now, so a long run shows its progress.
    private static func write(_ text: String) {
        print(text)
        fflush(nil)   // every stream: stdout is a global Swift 6 will not touch
    }

    private static func isReadableFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }
}
