import Testing
import TestSupport
import PortolanShipping

/// An app whose top level runs a pattern bomb (issue 10, item 3): `portolan check` hung on it, since the
/// matcher ran in C where the instruction budget of `AppLoadLimits` never reached. Now it ends with an error.
@Suite struct PatternBombCLITests {
    static let app = """
        portolan.app { id = "root" }
        local found = ("a"):rep(400):find(".-.-.-b")
        """

    @Test func checkReportsTheBudgetExceeded() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["check", "app.lua"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        // The budget ends it, or on a loaded machine with a debug build the time limit may come first:
        // either names the line.
        #expect(run.stdout.hasPrefix("app.lua:2: error: the script failed: instruction budget exceeded [load-error]")
                || run.stdout.hasPrefix("app.lua:2: error: the script failed: the script did not finish within"), "\(run.stdout)")
    }

    @Test func graphReportsTheBudgetExceeded() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["graph", "app.lua"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("app.lua:2: instruction budget exceeded") || run.stderr.contains("app.lua:2: the script did not finish within"),
                "\(run.stderr)")
    }
}
