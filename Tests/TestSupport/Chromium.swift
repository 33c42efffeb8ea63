import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debian's chromium (scripts/bootstrap.sh installs it), run headless as a test would run any tool:
/// a fresh profile and HOME in the test's directory, a time limit, and output to files. A test that
/// needs it is `@Test(.enabled(if: Chromium.path != nil, "chromium is not installed"))`.
public enum Chromium {
    /// The browser's executable; nil when none is installed.
    public static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The DOM of `file` once the page's scripts have run.
    public static func dumpDOM(of file: String, in directory: TemporaryDirectory) async throws -> String {
        let output = try await run(["--dump-dom", URL(fileURLWithPath: file).absoluteString], in: directory)
        guard output.contains("</html>") else { throw TestFailure("chromium dumped no DOM: \(output.prefix(500))") }
        return output
    }

    /// A PNG of `file` in a window of `width`×`height`, written to `png`.
    public static func screenshot(
        of file: String, to png: String, width: Int = 1280, height: Int = 900, in directory: TemporaryDirectory
    ) async throws {
        _ = try await run(
            ["--screenshot=\(png)", "--window-size=\(width),\(height)", "--hide-scrollbars", URL(fileURLWithPath: file).absoluteString],
            in: directory)
        guard FileManager.default.fileExists(atPath: png) else { throw TestFailure("chromium wrote no screenshot") }
    }

    /// Runs chromium; kills it if it has not finished within `limit`. Returns its standard output.
    private static func run(_ arguments: [String], in directory: TemporaryDirectory, limit: Duration = .seconds(60)) async throws -> String {
        guard let path else { throw TestFailure("chromium is not installed") }
        let home = directory.path("chromium-home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let output = try OutputFiles(in: directory.root, named: "chromium")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(home)/profile",
        ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory.root)
        try await output.run(process) { process in
            // A browser that hangs is killed, and the test fails saying so.
            let pid = process.processIdentifier
            Task.detached {
                try? await Task.sleep(for: limit)
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        guard process.terminationReason == .exit else {
            throw TestFailure("chromium did not finish within \(limit) and was killed: \((try? output.read().stderr)?.suffix(1000) ?? "")")
        }
        return try output.read().stdout
    }
}
