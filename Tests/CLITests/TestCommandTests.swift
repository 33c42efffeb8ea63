import Foundation
import Testing
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `portolan test`, end to end through the built binary.
@Suite(.serialized) struct TestCommandTests {
    private static let app = """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = { { id = "home", children = { { id = "detail" } } }, { id = "other" } },
        }
        """

    private static let mixed = """
        local portolan = require "portolan"
        scenario("routes", function()
          expect(portolan.route { "root", "home", "detail" }, { "enter detail" })
        end)
        scenario("wrong instructions", function()
          print("printed by the failing scenario")
          expect(portolan.route { "root", "other" }, { "switch root -> home" })
        end)
        scenario("later", function() skip("not yet") end)
        """

    @Test func movieScenariosPass() async throws {
        let run = try await PortolanBinary.run(
            ["test", "--app", "Examples/movies/app.lua"]
                + ["failures", "onboarding", "settings", "tabs", "events", "links"].map { "Examples/movies/scenarios/\($0).lua" })
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.lastLine.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(run.stdout)")
        #expect(!run.stdout.contains("FAIL"))
    }

    @Test func portusScenariosPass() async throws {
        let run = try await PortolanBinary.run(["test", "--app", "Examples/portus/app.lua", "Examples/portus/portus.lua"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("ok   Examples/portus/portus.lua: the README's examples, in order"))
        #expect(run.lastLine.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(run.stdout)")
    }

    @Test func aFailingScenarioShowsFileLineAndDiffAndExitsOne() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.mixed])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok   s.lua: routes"))
        #expect(lines.contains("FAIL s.lua: wrong instructions"))
        #expect(lines.contains(#"     s.lua:7: expected {"switch root -> home"} but got {"switch root -> other"}: [1] "switch root -> other" ~= "switch root -> home""#), "\(run.stdout)")
        #expect(lines.contains("       | printed by the failing scenario"))
        #expect(!run.stdout.contains("printed by") || lines.contains("     output:"))
        #expect(lines.contains("skip s.lua: later (not yet)"))
        #expect(lines.last == "1 passed, 1 failed, 1 skipped")
    }

    /// Issue 11: `--exhaustive` fails a scenario that leaves events unasserted, with the diff; the
    /// example that asserts every event passes under it.
    @Test func exhaustiveFailsUnassertedEventsAndTheExhaustiveExamplePasses() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.mixed])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--exhaustive", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let failure = try #require(lines.firstIndex(of: "FAIL s.lua: routes"), "\(run.stdout)")
        try #require(lines.count > failure + 4)
        #expect(lines[failure + 1] == "     s.lua:2: exhaustive: 3 events were not asserted by expect_events:")
        #expect(lines[(failure + 2)...(failure + 4)] == [
            "       + will_route root > home > detail", "       + enter detail", "       + did_route root > home > detail",
        ])
        let example = try await PortolanBinary.run(
            ["test", "--exhaustive", "--app", "Examples/movies/app.lua", "Examples/movies/scenarios/events.lua"])
        #expect(example.status == 0, "\(example.stdout)\(example.stderr)")
    }

    @Test func aScenarioFileWithASyntaxErrorFails() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "broken.lua": "scenario(\"x\", function() end)\nlocal = 1\n",
            "fine.lua": "scenario(\"y\", function() expect(1, 1) end)\n",
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "broken.lua", "fine.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL broken.lua\n     broken.lua:2: <name> expected near '='"), "\(run.stdout)")
        #expect(run.stdout.contains("ok   fine.lua: y"))
        #expect(run.lastLine == "1 passed, 1 failed")
    }

    @Test func anEndlessScenarioIsCutAndTheRunGoesOn() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "loop.lua": """
                scenario("spins", function() while true do end end)
                scenario("next", function() expect(portolan.active_path(), { "root", "home" }) end)
                """,
        ])
        defer { directory.remove() }
        let clock = ContinuousClock()
        let start = clock.now
        let run = try await PortolanBinary.run(["test", "--timeout", "1", "--app", "app.lua", "loop.lua"], in: directory)
        // Cut, not hung: without the cut the run would never end. Loose, for a busy machine.
        #expect(clock.now - start < .seconds(25))
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL loop.lua: spins\n     timed out after 1 s (cut at loop.lua:1)"), "\(run.stdout)")
        #expect(run.stdout.contains("ok   loop.lua: next"))
        #expect(run.lastLine == "1 passed, 1 failed")
    }

    // A number too large for Swift once killed the process and lost the whole report.
    @Test func hugeNumbersFailTheirScenarioNotTheRun() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": """
                portolan.app { id = "root", children = {
                  { id = "forever", enter = function() portolan.wait(math.huge) end },
                } }
                """,
            "s.lua": """
                scenario("huge wait in a handler", function()
                  local _, err = portolan.route { "root", "forever" }
                  expect(err.kind, "handler_failed")
                  error(err.message)
                end)
                scenario("huge wait in a scenario", function() portolan.wait(1e20) end)
                scenario("after them", function() expect(portolan.active_path(), { "root" }) end)
                """,
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--format", "junit", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("app.lua:2: portolan.wait expects a number of seconds from 0 to 1000000000, not inf"), "\(run.stdout)")
        #expect(run.stdout.contains("s.lua:6: portolan.wait expects a number of seconds from 0 to 1000000000, not 1e+20"))
        #expect(run.stdout.contains(#"tests="3" failures="2""#), "the report is whole")
        let tooLong = try await PortolanBinary.run(["test", "--timeout", "1e16", "--app", "app.lua", "s.lua"], in: directory)
        #expect(tooLong.status == 64)
        #expect(tooLong.stderr.contains("--timeout must be a positive number of seconds up to 1000000000, not 1e+16."), "\(tooLong.stderr)")
    }

    @Test func aScenarioCutWhileWaitingNamesWhereItWaited() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": """
                portolan.app { id = "root", children = {
                  { id = "slow", enter = function() portolan.wait(600) end },
                } }
                """,
            "s.lua": """
                scenario("waits in the scenario", function()
                  portolan.wait(600)
                end)
                scenario("waits in a handler", function()
                  local _, err = portolan.route { "root", "slow" }
                  error(tostring(err))
                end)
                """,
        ])
        defer { directory.remove() }
        // 3 s, not 1: on a busy machine a fresh host can take over a second to load the app, and a
        // limit that runs out before the scenario's first line has no line to name. Below the
        // handler's own limit (5 s), so the scenario's limit is what cuts the handler's wait.
        let run = try await PortolanBinary.run(
            ["test", "--timeout", "3", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL s.lua: waits in the scenario\n     timed out after 3 s (cut at s.lua:2)"), "\(run.stdout)")
        #expect(run.stdout.contains("FAIL s.lua: waits in a handler\n     timed out after 3 s (cut at s.lua:5)"), "\(run.stdout)")
    }

    @Test func anAppWithASyntaxErrorIsNamedWithItsLine() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": "portolan.app {\n  id = \"root\",\n  children = {\n",
            "s.lua": "scenario(\"a\", function() end)\nscenario(\"b\", function() end)\n",
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL s.lua: a\n     the app did not load: app.lua:4:"), "\(run.stdout)")
        #expect(run.stdout.contains("FAIL s.lua: b\n     the app did not load: app.lua:4:"))
        #expect(run.lastLine == "0 passed, 2 failed")
    }

    @Test func tapFormat() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.mixed])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--format", "tap", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "TAP version 14")
        #expect(lines.contains("ok 1 - s.lua: routes"))
        #expect(lines.contains("not ok 2 - s.lua: wrong instructions"))
        #expect(lines.contains("ok 3 - s.lua: later # SKIP not yet"))
        #expect(lines.contains("1..3"))
        let block = try #require(lines.firstIndex(of: "not ok 2 - s.lua: wrong instructions"))
        #expect(lines[block + 1] == "  ---")
        #expect(lines[block + 2] == "  message: |")
        #expect(lines[block + 3].hasPrefix("    s.lua:7: expected"))
        #expect(lines[(block + 3)...].contains("  ..."))
    }

    @Test func junitFormat() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app, "s.lua": Self.mixed,
            "other.lua": "scenario(\"<odd> & \\\"quoted\\\"\", function() error(\"a < b & c\") end)\n",
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(
            ["test", "--format", "junit", "--app", "app.lua", "s.lua", "other.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("<?xml"))
        #if canImport(FoundationXML) || os(macOS)
        let document = try XMLDocument(xmlString: run.stdout)
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["s.lua", "other.lua"])
        let odd = try #require(suites.last?.elements(forName: "testcase").first)
        #expect(odd.attribute(forName: "name")?.stringValue == "<odd> & \"quoted\"")
        let failure = try #require(odd.elements(forName: "failure").first)
        #expect(failure.stringValue?.contains("other.lua:1: a < b & c") == true)
        let skipped = suites.first?.elements(forName: "testcase").last?.elements(forName: "skipped").first
        #expect(skipped?.attribute(forName: "message")?.stringValue == "not yet")
        #else
        #expect(run.stdout.contains("&lt;odd&gt; &amp; &quot;quoted&quot;"))
        #endif
    }

    // MARK: Jobs and shards

    private static let movieFiles = ["failures", "onboarding", "settings", "tabs"].map { "Examples/movies/scenarios/\($0).lua" }

    @Test func jobsReportExactlyAsOneJobDoes() async throws {
        for (arguments, format) in [
            (["--app", "Examples/movies/app.lua"] + Self.movieFiles, "text"),
            (["--app", "Examples/movies/app.lua"] + Self.movieFiles, "tap"),
            (["--app", "Examples/portus/app.lua", "Examples/portus/portus.lua"], "text"),
        ] {
            let one = try await PortolanBinary.run(["test", "--format", format] + arguments)
            let two = try await PortolanBinary.run(["test", "--format", format, "--jobs", "2"] + arguments)
            let auto = try await PortolanBinary.run(["test", "--format", format, "--jobs", "auto"] + arguments)
            // 0 means one per core, as auto does: not a count to refuse.
            let zero = try await PortolanBinary.run(["test", "--format", format, "--jobs=0"] + arguments)
            #expect(one.status == 0, "\(one.stdout)\(one.stderr)")
            #expect(two.status == 0 && auto.status == 0 && zero.status == 0, "\(two.stderr)\(auto.stderr)\(zero.stderr)")
            #expect(two.stdout == one.stdout)
            #expect(auto.stdout == one.stdout)
            #expect(zero.stdout == one.stdout)
        }
    }

    @Test func endlessScenariosAreCutUnderTwoJobs() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "loop.lua": """
                scenario("spins", function() while true do end end)
                scenario("next", function() expect(portolan.active_path(), { "root", "home" }) end)
                scenario("spins too", function() local n = 0; while true do n = n + 1 end end)
                scenario("last", function() end)
                """,
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(
            ["test", "--jobs", "2", "--timeout", "1", "--app", "app.lua", "loop.lua"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout == """
            FAIL loop.lua: spins
                 timed out after 1 s (cut at loop.lua:1)
            ok   loop.lua: next
            FAIL loop.lua: spins too
                 timed out after 1 s (cut at loop.lua:3)
            ok   loop.lua: last
            2 passed, 2 failed

            """, "\(run.stdout)")
    }

    @Test func shardsTogetherRunEveryScenarioOnceEachAValidReport() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app, "s.lua": Self.mixed,
            "t.lua": (1...4).map { "scenario(\"t\($0)\", function() end)" }.joined(separator: "\n"),
            "broken.lua": "local = 1\n",
        ])
        defer { directory.remove() }
        let files = ["s.lua", "t.lua", "broken.lua"]
        let whole = try await PortolanBinary.run(["test", "--app", "app.lua"] + files, in: directory)
        let all = whole.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.dropLast().map(String.init)
        #expect(all.count == 8, "\(whole.stdout)")
        var union: [String] = []
        for index in 1...3 {
            let shard = ["--shard", "\(index)/3", "--jobs", "2", "--app", "app.lua"]
            let text = try await PortolanBinary.run(["test"] + shard + files, in: directory)
            let lines = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.dropLast().map(String.init)
            #expect(lines == all.filter(lines.contains), "shard \(index)")
            #expect(text.status == (lines.contains { $0.hasPrefix("FAIL") } ? 1 : 0))
            union += lines

            // TAP: its own numbering and plan.
            let tap = try await PortolanBinary.run(["test", "--format", "tap"] + shard + files, in: directory)
            let tapLines = tap.stdout.split(separator: "\n").map(String.init)
            #expect(tapLines.first == "TAP version 14")
            let results = tapLines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
            #expect(results.count == lines.count)
            for (offset, line) in results.enumerated() {
                #expect(line.hasPrefix("ok \(offset + 1) - ") || line.hasPrefix("not ok \(offset + 1) - "), "\(line)")
            }
            #expect(tapLines.contains("1..\(lines.count)"), "\(tap.stdout)")

            // JUnit: a well-formed document counting the shard's cases only.
            let junit = try await PortolanBinary.run(["test", "--format", "junit"] + shard + files, in: directory)
            #expect(junit.stdout.hasPrefix("<?xml"))
            #if canImport(FoundationXML) || os(macOS)
            let root = try #require(try XMLDocument(xmlString: junit.stdout).rootElement())
            #expect(root.attribute(forName: "tests")?.stringValue == "\(lines.count)")
            #endif
        }
        #expect(union.sorted() == all.sorted())
    }

    @Test func badJobsAndShardsAreUsageErrors() async throws {
        for (arguments, message) in [
            (["--shard", "0/2"], "the shard index must be between 1 and 2, not 0"),
            (["--shard", "3/2"], "the shard index must be between 1 and 2, not 3"),
            (["--shard", "1/0"], "the shard count must be at least 1, not 0"),
            (["--shard", "2"], "a shard is i/n"),
            (["--shard", "a/b"], "a shard is i/n"),
            (["--jobs=-1"], "--jobs needs a positive number of scenarios to run at once (or 0 or auto for one per core), not \"-1\""),
            (["--jobs", "-1"], "--jobs needs a positive number of scenarios to run at once (or 0 or auto for one per core), not \"-1\""),
            (["--jobs", "-3"], "not \"-3\""),
            (["--jobs", "two"], "--jobs needs a positive number of scenarios to run at once"),
            (["--jobs", "1.5"], "not \"1.5\""),
        ] {
            let run = try await PortolanBinary.run(["test"] + arguments + ["Examples/portus/portus.lua"])
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stdout.isEmpty)
            #expect(!run.stderr.contains("Missing value"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func usageErrors() async throws {
        let missing = try await PortolanBinary.run(["test", "no/such/file.lua"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("No such scenario file: no/such/file.lua"))
        let none = try await PortolanBinary.run(["test"])
        #expect(none.status != 0)
        let format = try await PortolanBinary.run(["test", "--format", "xml", "Examples/portus/portus.lua"])
        #expect(format.status != 0)
        #expect(format.stderr.contains("text"))
    }
}
