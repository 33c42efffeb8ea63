import Foundation
import Testing
import TestSupport

/// `portolan test` choosing what runs (issue 25, §1): directories, `--filter`, `scenario.only` and
/// `scenario.skip` with `--forbid-only`, and unknown options named as such; end to end through the
/// built binary.
@Suite struct TestSelectionCLITests {
    private static let app = """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = { { id = "home", children = { { id = "detail" } } }, { id = "other" } },
        }
        """

    private static func passing(_ names: [String]) -> String {
        names.map { "scenario(\"\($0)\", function() expect(1, 1) end)\n" }.joined()
    }

    private static func lines(_ run: PortolanBinary.Run) -> [String] {
        run.stdout.split(separator: "\n").map(String.init)
    }

    /// Issue 25: `portolan test scenarios` failed with "No such scenario file: scenarios".
    @Test func aDirectoryRunsEveryLuaFileBeneathItInSortedOrder() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "scenarios/b.lua": Self.passing(["b1"]),
            "scenarios/a.lua": Self.passing(["a1", "a2"]),
            "scenarios/nested/c.lua": Self.passing(["c1"]),
            "scenarios/notes.txt": "not a scenario",
            "scenarios/.hidden/d.lua": "error('a hidden folder is not run')",
        ])
        defer { directory.remove() }
        for argument in ["scenarios", "scenarios/"] {
            let run = try await PortolanBinary.run(["test", "--app", "app.lua", argument], in: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(Self.lines(run) == [
                "ok   scenarios/a.lua: a1", "ok   scenarios/a.lua: a2", "ok   scenarios/b.lua: b1",
                "ok   scenarios/nested/c.lua: c1", "4 passed, 0 failed",
            ], "\(run.stdout)")
        }
        let empty = try TemporaryDirectory("cli", files: ["nothing/readme.txt": "no scenarios here"])
        defer { empty.remove() }
        let none = try await PortolanBinary.run(["test", "nothing"], in: empty)
        #expect(none.status == 64)
        #expect(none.stderr.contains("No scenario file (*.lua) under nothing"), "\(none.stderr)")
    }

    /// Issue 25: `--filter tabs` failed with "No such scenario file: tabs".
    @Test func filterRunsOnlyTheScenariosWhoseNameMatches() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "s.lua": Self.passing(["tabs keep their stacks", "login", "tabs reset"]),
            "t.lua": Self.passing(["settings"]),
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "--filter", "^tabs", "s.lua", "t.lua"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.lines(run) == ["ok   s.lua: tabs keep their stacks", "ok   s.lua: tabs reset",
            "2 scenarios not run: the run is narrowed by --filter ^tabs", "2 passed, 0 failed"])
        let nothing = try await PortolanBinary.run(["test", "--app", "app.lua", "--filter", "nope", "s.lua"], in: directory)
        #expect(nothing.status == 1)
        #expect(nothing.lastLine == "0 passed, 0 failed")
        #expect(nothing.stderr.contains("no scenario's name matches --filter nope"), "\(nothing.stderr)")
        let invalid = try await PortolanBinary.run(["test", "--filter", "(", "s.lua"], in: directory)
        #expect(invalid.status == 64)
        #expect(invalid.stderr.contains("--filter ( is not a regular expression: unmatched '(' at 0"), "\(invalid.stderr)")
        let backreference = try await PortolanBinary.run(["test", "--filter", "(a)\\1", "s.lua"], in: directory)
        #expect(backreference.status == 64 && backreference.stderr.contains("backreferences are not supported"), "\(backreference.stderr)")
    }

    /// Issue 34: a pull request writes `--filter`, and Swift's backtracking `Regex` took 27 s over a
    /// name of 34 `a`s with `(a|aa)*c`, twice as long for each two more. The filter is matched in
    /// linear time (`LinearRegex`): this name of 60 is no work.
    @Test func aPathologicalFilterIsMatchedInLinearTime() async throws {
        let name = String(repeating: "a", count: 60)
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.passing([name, name + "c"])])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "--filter", "(a|aa)*c", "s.lua"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.lines(run) == ["ok   s.lua: \(name)c", "1 scenario not run: the run is narrowed by --filter (a|aa)*c", "1 passed, 0 failed"])
    }

    @Test func anUnknownOptionIsNamedNotTakenForAFile() async throws {
        let run = try await PortolanBinary.run(["test", "--grep", "tabs", "Examples/portus/portus.lua"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("Unknown option '--grep'"), "\(run.stderr)")
        #expect(!run.stderr.contains("No such scenario file"), "\(run.stderr)")
    }

    private static let marked = """
        scenario("plain", function() expect(1, 1) end)
        scenario.only("focused", function() expect(1, 1) end)
        scenario.skip("parked", function() error("never runs") end)
        """

    @Test func onlyRunsTheFocusedScenariosAcrossTheRunAndSkipSkips() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app, "s.lua": Self.marked,
            "t.lua": Self.passing(["elsewhere"]),
            "u.lua": "scenario(\"plain\", function() end)\nscenario.skip(\"parked\", function() error(\"never runs\") end)\n",
        ])
        defer { directory.remove() }
        let focused = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua", "t.lua"], in: directory)
        #expect(focused.status == 0, "\(focused.stdout)\(focused.stderr)")
        // Issue 34: what the focus left out is said beside the counts, which stay the last line.
        #expect(Self.lines(focused) == ["ok   s.lua: focused", "3 scenarios not run: the run is narrowed by scenario.only", "1 passed, 0 failed"])
        let skipped = try await PortolanBinary.run(["test", "--app", "app.lua", "u.lua"], in: directory)
        #expect(skipped.status == 0)
        #expect(Self.lines(skipped) == ["ok   u.lua: plain", "skip u.lua: parked (scenario.skip)", "1 passed, 0 failed, 1 skipped"])
    }

    @Test func forbidOnlyFailsEachFocusedScenarioAndRunsTheRest() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.marked])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--forbid-only", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(Self.lines(run) == [
            "ok   s.lua: plain", "FAIL s.lua: focused",
            "     scenario.only is forbidden by --forbid-only: remove the only before committing, so that every scenario runs",
            "skip s.lua: parked (scenario.skip)", "1 passed, 1 failed, 1 skipped",
        ], "\(run.stdout)")
    }

    /// Issue 34: `portolan test --app app.lua .` ran `app.lua` itself as a scenario file, and failed.
    @Test func aFolderOfScenariosBesideTheAppDoesNotRunTheApp() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.passing(["beside"])])
        defer { directory.remove() }
        for folder in [".", "./"] {
            let run = try await PortolanBinary.run(["test", "--app", "app.lua", folder], in: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            #expect(Self.lines(run) == ["ok   ./s.lua: beside", "1 passed, 0 failed"], "\(run.stdout)")
        }
    }
}
