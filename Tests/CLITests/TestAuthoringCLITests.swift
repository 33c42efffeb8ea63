import Foundation
import Testing
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `portolan test` for the one writing scenarios (issue 25, §1): set-up and tear-down, partial
/// matches, `--verbose`, the hint when no app was loaded, JUnit's failure message, and the handler
/// time limit from the command line and from the app; end to end through the built binary.
@Suite struct TestAuthoringCLITests {
    private static let app = """
        logged_in = false
        function login() logged_in = true end
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home" },
            { id = "account", guard = function() if not logged_in then return portolan.deny("log in first") end end },
          },
        }
        """

    private static func lines(_ run: PortolanBinary.Run) -> [String] {
        run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func beforeEachAndAfterEachFrameEveryScenarioDeclaredAfterThem() async throws {
        let scenarios = """
            before_each(function() login(); print("set up") end)
            after_each(function() print("torn down") end)
            scenario("routes logged in", function()
              local _, err = portolan.route { "root", "account" }
              expect(err, nil)
            end)
            scenario("fails, and is still torn down", function()
              print("body")
              expect(logged_in, false)
            end)
            """
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": scenarios])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(Self.lines(run) == [
            "ok   s.lua: routes logged in",
            "FAIL s.lua: fails, and is still torn down",
            "     s.lua:9: expected false but got true",
            "     output:",
            "       | set up", "       | body", "       | torn down",
            "1 passed, 1 failed",
        ], "\(run.stdout)")
        let late = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "s.lua": "scenario(\"a\", function() before_each(function() end) end)\n",
        ])
        defer { late.remove() }
        let inside = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: late)
        #expect(inside.stdout.contains("s.lua:1: before_each(fn) belongs at the top of the file, not inside a scenario"), "\(inside.stdout)")
        try late.write("t.lua", """
            after_each(function() error("cleanup broke") end)
            scenario("fails twice", function() expect(1, 2) end)
            """)
        let twice = try await PortolanBinary.run(["test", "--app", "app.lua", "t.lua"], in: late)
        #expect(Self.lines(twice).prefix(3) == [
            "FAIL t.lua: fails twice", "     t.lua:2: expected 2 but got 1", "     and after_each failed too: t.lua:1: cleanup broke",
        ], "\(twice.stdout)")
    }

    /// Issue 25: `expect(err, { kind = "handler_failed" })` failed on the first extra key.
    @Test func expectMatchIgnoresExtraKeysAndShowsTheSameDiffs() async throws {
        let scenarios = """
            scenario("matches", function()
              local _, err = portolan.route { "root", "account" }
              expect_match(err, { kind = "denied" })
              expect_match({ a = { b = 1, c = 2 }, list = { { id = 1, x = 0 } } }, { a = { b = 1 }, list = { { id = 1 } } })
            end)
            scenario("differs", function()
              local _, err = portolan.route { "root", "account" }
              expect_match(err, { kind = "handler_failed" })
            end)
            scenario("a list keeps its length", function()
              expect_match({ { id = 1 }, { id = 2 } }, { { id = 1 } })
            end)
            """
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": scenarios])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        let lines = Self.lines(run)
        #expect(lines.contains("ok   s.lua: matches"), "\(run.stdout)")
        #expect(lines.contains(#"     s.lua:8: expected {kind = "handler_failed"} but got {kind = "denied"}: kind "denied" ~= "handler_failed""#),
                "\(run.stdout)")
        #expect(lines.contains(where: { $0.hasPrefix("     s.lua:11: expected {{id = 1}} but got {{id = 1}, {id = 2}}") && $0.hasSuffix("(2 items, expected 1)") }),
                "\(run.stdout)")
    }

    /// Issue 25: the only way to see what a passing scenario printed was to make it fail.
    @Test func verboseShowsWhatPassingScenariosPrinted() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app, "s.lua": "scenario(\"talks\", function() print(\"hello\") end)\n",
        ])
        defer { directory.remove() }
        let quiet = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(Self.lines(quiet) == ["ok   s.lua: talks", "1 passed, 0 failed"])
        let verbose = try await PortolanBinary.run(["test", "--verbose", "--app", "app.lua", "s.lua"], in: directory)
        #expect(verbose.status == 0)
        #expect(Self.lines(verbose) == ["ok   s.lua: talks", "     output:", "       | hello", "1 passed, 0 failed"])
        let tap = try await PortolanBinary.run(["test", "--verbose", "--format", "tap", "--app", "app.lua", "s.lua"], in: directory)
        #expect(Self.lines(tap).prefix(6) == ["TAP version 14", "ok 1 - s.lua: talks", "  ---", "  output: |", "    hello", "  ..."])
    }

    /// Issue 25: without `--app`, `login()` failed with "attempt to call a nil value (global 'login')".
    @Test func aMissingGlobalWithoutAnAppSaysNoAppWasLoaded() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app, "s.lua": "scenario(\"logs in\", function() login() end)\n",
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("global 'login'"), "\(run.stdout)")
        #expect(run.stdout.contains("(no app was loaded: give the app with --app APP.lua"), "\(run.stdout)")
        let withApp = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(withApp.status == 0, "\(withApp.stdout)")
    }

    /// Issue 25: JUnit's `failure@message` was an event diff's header, which ends in a colon.
    @Test func junitFailureMessageCarriesTheFirstDifferingLine() async throws {
        let scenarios = """
            scenario("events", function()
              portolan.route { "root", "account" }
              expect_events { "will_route root > home" }
            end)
            """
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": scenarios])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--format", "junit", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #if canImport(FoundationXML) || os(macOS)
        let document = try XMLDocument(xmlString: run.stdout)
        let failures = try document.nodes(forXPath: "//failure")
        try #require(failures.count == 1)
        let message = (failures[0] as? XMLElement)?.attribute(forName: "message")?.stringValue ?? ""
        #expect(message.hasPrefix("s.lua:3: events differ"), "\(message)")
        #expect(message.hasSuffix("expected, + actual: - will_route root > home"), "\(message)")
        #else
        #expect(run.stdout.contains("expected, + actual: - will_route root &gt; home\""))
        #endif
    }

    private static let slowApp = """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = { { id = "home", children = { { id = "slow", enter = function() portolan.wait(3) end } } } },
        }
        """

    /// Issue 25: the handler time limit (5 s) could be set neither from the command line nor from Lua.
    @Test func theHandlerTimeLimitComesFromTheCommandLineOrTheApp() async throws {
        let scenario = """
            scenario("slow", function()
              local _, err = portolan.route { "root", "home", "slow" }
              expect_match(err, { kind = "timeout" })
            end)
            """
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.slowApp, "s.lua": scenario,
            "own.lua": Self.slowApp.replacingOccurrences(of: "id = \"root\",", with: "id = \"root\", handler_timeout = 0.2,"),
            "bad.lua": Self.slowApp.replacingOccurrences(of: "id = \"root\",", with: "id = \"root\", handler_timeout = -1,"),
        ])
        defer { directory.remove() }
        let flag = try await PortolanBinary.run(["test", "--handler-timeout", "0.2", "--app", "app.lua", "s.lua"], in: directory)
        #expect(flag.status == 0, "\(flag.stdout)")
        let own = try await PortolanBinary.run(["test", "--app", "own.lua", "s.lua"], in: directory)
        #expect(own.status == 0, "\(own.stdout)")
        let bad = try await PortolanBinary.run(["test", "--app", "bad.lua", "s.lua"], in: directory)
        #expect(bad.stdout.contains("handler_timeout must be a number of seconds more than 0 and at most 1000000000, not -1"),
                "\(bad.stdout)")
        for value in ["0", "-1", "1e10", "nan"] {
            let refused = try await PortolanBinary.run(["test", "--handler-timeout=\(value)", "s.lua"], in: directory)
            #expect(refused.status == 64, "\(value)")
            #expect(refused.stderr.contains("--handler-timeout must be a number of seconds more than 0 and at most 1000000000"),
                    "\(value): \(refused.stderr)")
        }
    }
}
