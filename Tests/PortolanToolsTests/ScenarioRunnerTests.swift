import Foundation
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// The scenario runner as a library: listing, isolation, expect's diffs, skips, failures that name
/// their file:line, timeouts, jobs and shards (the report formats: ScenarioReportTests).
@Suite struct ScenarioRunnerTests {
    static let app = """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", children = { { id = "detail" } } },
            { id = "other" },
          },
        }
        """

    /// The default limit is far above what any of these scenarios needs: with the whole suite on
    /// two busy cores, listing a file once took over 10 s (the fuzzers and the soak share the pool).
    static func run(
        _ scenarios: String, app: String? = ScenarioRunnerTests.app, timeout: Duration = .seconds(60)
    ) async throws -> (file: String, results: [ScenarioResult]) {
        var contents = ["s.lua": scenarios]
        if let app { contents["app.lua"] = app }
        let directory = try TemporaryDirectory("scenarios", files: contents)
        defer { directory.remove() }
        let runner = ScenarioRunner(options: .init(
            app: app == nil ? nil : directory.path("app.lua"), timeout: timeout, grace: .milliseconds(500)))
        let file = directory.path("s.lua")
        // Messages name the file as Lua does: a long temporary path is shortened from the front.
        return (ScenarioRunner.luaName(of: file), await runner.run(files: [file]))
    }

    static func message(_ result: ScenarioResult) -> String? {
        if case .failed(let message) = result.outcome { return message }
        return nil
    }

    @Test func whatAScenarioPrintsIsBoundedInBytesToo() async throws {
        let (_, results) = try await Self.run("""
            scenario("prints a megabyte forty times", function()
              local big = string.rep("x", 1 << 20)
              for _ = 1, 40 do print(big) end
              expect(1, 2)
            end)
            scenario("prints over a megabyte in lines", function()
              for _ = 1, 300 do print(string.rep("y", 4000)) end
              expect(1, 2)
            end)
            """)
        guard results.count == 2 else {
            Issue.record("two scenarios, saw \(results.count)")
            return
        }
        for result in results {
            #expect(result.output.reduce(0) { $0 + $1.utf8.count } <= BoundedOutput.byteLimit + 200)
        }
        #expect(results[0].output.first?.hasSuffix("… (line cut at 4096 bytes of 1048576)") == true)
        #expect(results[0].output.count == 40)
        #expect(results[1].output.last == "… (output cut after 1 MiB)")
    }

    @Test func anAppThatRedefinesBuiltinsCannotMakeAFailingExpectationPass() async throws {
        let (_, results) = try await Self.run("""
            scenario("fails whatever the app did", function() expect(1, 2) end)
            """, app: Self.app + "\nerror = function() end\ntype = function() return 'table' end\n")
        guard results.count == 1 else {
            Issue.record("one scenario, saw \(results.count)")
            return
        }
        #expect(results[0].isFailure)
        #expect(Self.message(results[0])?.contains("expected 2 but got 1") == true, "\(results[0])")
    }

    /// Issue 10, item 5: an app that redefined `expect` (or `scenario`, or a builtin the scenario
    /// calls) made failing tests pass. The scenario file's globals are its own; its assignments
    /// still reach the app (`logged_in = true`), and it still sees the app's globals. Issue 18:
    /// the library is not in the app's globals at all.
    @Test func anAppThatRedefinesTheScenarioLibraryCannotMakeAFailingScenarioPass() async throws {
        let sabotage = """
            assert(scenario == nil and expect == nil and skip == nil and expect_events == nil and exhaustive == nil,
              "the scenario library is in the app's globals")
            expect = function() end
            scenario = function() end
            tostring = function() return "same" end
            function signed_in() return logged_in == true end
            """
        let (_, results) = try await Self.run("""
            scenario("expect is the runner's", function() expect(1, 2) end)
            scenario("builtins are as they were", function() expect(tostring(1), tostring(2)) end)
            scenario("assignments reach the app", function() logged_in = true expect(signed_in(), true) end)
            scenario.each({ 1 }, "scenario.each is the runner's (%d)", function(n) expect(n, 2) end)
            """, app: Self.app + "\n" + sabotage)
        guard results.count == 4 else {
            Issue.record("four scenarios, saw \(results.count)")
            return
        }
        #expect(Self.message(results[0])?.contains("expected 2 but got 1") == true, "\(results[0])")
        #expect(Self.message(results[1])?.contains(#"expected "2" but got "1""#) == true, "\(results[1])")
        #expect(results[2].outcome == .passed, "\(results[2])")
        #expect(Self.message(results[3])?.contains("expected 2 but got 1") == true, "\(results[3])")
    }

    @Test func listsScenariosInOrderAndRunsEachInAFreshApp() async throws {
        let (_, results) = try await Self.run("""
            local portolan = require "portolan"
            scenario("first routes", function()
              touched = true
              expect(portolan.route { "root", "home", "detail" }, { "enter detail" })
            end)
            scenario("second starts afresh", function()
              expect(touched, nil)
              expect(portolan.active_path(), { "root", "home" })
            end)
            scenario("third", function() end)
            """)
        #expect(results.map(\.name) == ["first routes", "second starts afresh", "third"])
        #expect(results.map(\.outcome) == [.passed, .passed, .passed])
    }

    @Test func listDiffNamesTheFirstDifferingIndexAndTheLine() async throws {
        let (file, results) = try await Self.run("""
            scenario("lists", function()
              expect({ "a", "c" }, { "a", "b" })
            end)
            """)
        let message = try #require(results.first.flatMap(Self.message))
        #expect(message.hasPrefix(file + ":2: "))
        #expect(message.contains(#"expected {"a", "b"} but got {"a", "c"}: [2] "c" ~= "b""#))
    }

    @Test func tableDiffNamesTheKeyPathAndTheMessage() async throws {
        let (file, results) = try await Self.run("""
            scenario("tables", function()
              expect({ id = "movie", context = { id = 7 } }, { id = "movie", context = { id = 42 } }, "the entry")
            end)
            """)
        let message = try #require(results.first.flatMap(Self.message))
        #expect(message.hasPrefix(file + ":2: the entry: "))
        #expect(message.contains("context.id 7 ~= 42"))
    }

    @Test func expectComparesNumbersWithEqualityAndAcceptsNil() async throws {
        let (_, results) = try await Self.run("""
            scenario("numbers and nil", function()
              expect(42, 42.0)
              expect({ 1, { x = 2 } }, { 1.0, { x = 2.0 } })
              expect(nil, nil)
              expect(portolan.plan { "root", "home" }, {})
            end)
            scenario("nil against a value", function() expect(nil, 3) end)
            scenario("a missing expected value", function() expect(3) end)
            """)
        try #require(results.count == 3, "\(results)")
        #expect(results[0].outcome == .passed)
        #expect(Self.message(results[1])?.contains("expected 3 but got nil") == true)
        #expect(Self.message(results[2])?.contains("needs an expected value") == true)
    }

    @Test func aHelpersFailingExpectAlsoNamesTheScenarioLine() async throws {
        let (file, results) = try await Self.run("""
            local function same(a, b) expect(a, b) end
            scenario("helper", function()
              same(1, 2)
            end)
            """)
        let message = try #require(results.first.flatMap(Self.message))
        #expect(message.hasPrefix(file + ":1: expected 2 but got 1"))
        #expect(message.contains("called from \(file):3"))
    }

    @Test func assertErrorAndSkipAreReported() async throws {
        let (file, results) = try await Self.run("""
            scenario("assert", function() assert(false, "boom") end)
            scenario("error", function() error("bad thing") end)
            scenario("skip", function() skip("not today"); error("not reached") end)
            scenario("print", function() print("shown on failure"); expect(1, 2) end)
            """)
        try #require(results.count == 4, "\(results)")
        #expect(Self.message(results[0]) == file + ":1: boom")
        #expect(Self.message(results[1]) == file + ":2: bad thing")
        #expect(results[2].outcome == .skipped("not today"))
        #expect(results[3].output == ["shown on failure"])
        #expect(ScenarioSummary(results).description == "0 passed, 3 failed, 1 skipped")
    }

    @Test func aFileThatDoesNotLoadIsOneFailedEntry() async throws {
        let (file, results) = try await Self.run("""
            scenario("x", function() end)
            local = 1
            """)
        try #require(results.count == 1, "\(results)")
        #expect(results[0].name == ScenarioResult.fileFailureName)
        #expect(Self.message(results[0])?.hasPrefix(file + ":2:") == true)
    }

    @Test func anAppThatDoesNotLoadFailsEveryScenario() async throws {
        let (file, results) = try await Self.run("""
            scenario("one", function() end)
            scenario("two", function() end)
            """, app: "portolan.app {\n  id = \n")
        #expect(results.map(\.name) == ["one", "two"])
        for result in results {
            #expect(Self.message(result)?.hasPrefix("the app did not load: ") == true)
            #expect(Self.message(result)?.contains("app.lua:3: unexpected symbol near <eof>") == true)
        }
    }

    @Test func aScenarioThatNeverEndsIsCutAndTheNextOneRuns() async throws {
        let directory = try TemporaryDirectory("scenarios", files: ["app.lua": Self.app, "s.lua": """
            scenario("loops", function() print("started") while true do end end)
            scenario("waits forever", function() print("started") while true do portolan.wait(0.01) end end)
            scenario("after", function() expect(portolan.active_path(), { "root", "home" }) end)
            """])
        defer { directory.remove() }
        let file = directory.path("s.lua"), app = directory.path("app.lua")
        // Each names the line it was cut at (Lua shortens a long path from the front).
        let name = ScenarioRunner.luaName(of: file)
        let loops = await Self.cutInItsBody(file, app: app, scenario: 1, named: "loops")
        let waits = await Self.cutInItsBody(file, app: app, scenario: 2, named: "waits forever")
        #expect(loops.message == "timed out after \(loops.seconds) s (cut at \(name):1)")
        #expect(waits.message == "timed out after \(waits.seconds) s (cut at \(name):2)")
        let patient = ScenarioRunner(options: .init(app: app, timeout: .seconds(60)))
        #expect(await patient.run(file: file, scenario: 3, named: "after").outcome == .passed)
    }

    /// Runs an endless scenario alone under a short limit, longer each time the cut fell before
    /// its body began (a busy test process may take seconds to load the app): what is tested is
    /// the cut in the body, which the scenario's "started" shows was reached.
    private static func cutInItsBody(_ file: String, app: String, scenario: Int, named name: String) async -> (message: String?, seconds: Int) {
        var result: (message: String?, seconds: Int) = (nil, 0)
        for seconds in [2, 5, 15] {
            // A long grace: a busy process may take more than a moment to unwind the cut script,
            // and a scenario abandoned after its grace has no line to report.
            let runner = ScenarioRunner(options: .init(app: app, timeout: .seconds(seconds), grace: .seconds(10)))
            let outcome = await runner.run(file: file, scenario: scenario, named: name)
            result = (message(outcome), seconds)
            if outcome.output.contains("started") { break }
        }
        return result
    }

    @Test func aFileWithoutScenariosFails() async throws {
        let (_, results) = try await Self.run("local x = 1\n")
        try #require(results.count == 1, "\(results)")
        #expect(Self.message(results[0])?.contains("declares no scenario") == true)
    }

    // MARK: Jobs and shards

    private static let suite = [
        "a.lua": """
            local portolan = require "portolan"
            scenario("routes", function() expect(portolan.route { "root", "home", "detail" }, { "enter detail" }) end)
            scenario("fails", function() print("said"); expect(1, 2) end)
            scenario("skips", function() skip("later") end)
            """,
        "b.lua": "scenario(\"x\", function() end)\nlocal = 1\n",
        "c.lua": """
            scenario("one", function() local n = 0; for i = 1, 20000 do n = n + i end; expect(n, 200010000) end)
            scenario("two", function() expect(portolan.active_path(), { "root", "home" }) end)
            scenario("three", function() error("boom") end)
            scenario("four", function() end)
            """,
        "d.lua": "local x = 1\n",
    ]

    /// What a result says, without its duration.
    private static func shown(_ results: [ScenarioResult]) -> [String] {
        results.map { "\($0.title) \($0.outcome) \($0.output)" }
    }

    @Test func jobsGiveTheSameResultsInTheSameOrder() async throws {
        let directory = try TemporaryDirectory("scenarios", files: Self.suite.merging(["app.lua": Self.app]) { $1 })
        defer { directory.remove() }
        let files = ["c.lua", "a.lua", "d.lua", "b.lua"].map(directory.path)
        func run(jobs: Int) async -> (results: [ScenarioResult], reported: [ScenarioResult]) {
            let runner = ScenarioRunner(options: .init(app: directory.path("app.lua"), timeout: .seconds(60), jobs: jobs))
            var reported: [ScenarioResult] = []
            let results = await runner.run(files: files) { reported.append($0) }
            return (results, reported)
        }
        let one = await run(jobs: 1), two = await run(jobs: 2), many = await run(jobs: 5)
        #expect(one.results.count == 9)
        #expect(Self.shown(one.results) == Self.shown(one.reported))
        for other in [two, many] {
            #expect(Self.shown(other.results) == Self.shown(one.results))
            #expect(Self.shown(other.reported) == Self.shown(one.results))
        }
        #expect(ScenarioSummary(two.results).description == "4 passed, 4 failed, 1 skipped")
    }

    /// Only endless scenarios here: in this shared test process, other suites can hold the
    /// cooperative threads, so a quick scenario's result would depend on scheduling. Quick and
    /// endless scenarios together under --jobs are checked through the binary (TestCommandTests).
    @Test func endlessScenariosAreCutUnderJobs() async throws {
        let directory = try TemporaryDirectory("scenarios", files: ["app.lua": Self.app, "s.lua": """
            scenario("loops", function() while true do end end)
            scenario("waits forever", function() while true do portolan.wait(0.01) end end)
            scenario("loops too", function() local n = 0; while true do n = n + 1 end end)
            """])
        defer { directory.remove() }
        // Listed by a patient runner: while the whole suite runs, other suites' synchronous tests
        // can hold the cooperative threads for seconds, which would cut a short-limited listing.
        let app = directory.path("app.lua")
        let entries = await ScenarioRunner(options: .init(app: app, timeout: .seconds(60))).entries(files: [directory.path("s.lua")])
        let runner = ScenarioRunner(options: .init(app: app, timeout: .seconds(1), grace: .milliseconds(500), jobs: 2))
        let results = await runner.run(entries: entries)
        try #require(results.map(\.name) == ["loops", "waits forever", "loops too"])
        let name = ScenarioRunner.luaName(of: directory.path("s.lua"))
        for (line, result) in zip(1..., results) {
            // Where it was cut, when it was cut inside the scenario: on a machine busy enough, the
            // limit can run out while the fresh host still loads the app, before any line of it.
            let cutInside = "timed out after 1 s (cut at \(name):\(line))", cutBefore = "timed out after 1 s (cut)"
            #expect([cutInside, cutBefore].contains(Self.message(result)), "\(result)")
        }
    }

    @Test func shardsPartitionEveryEntryExactlyOnce() throws {
        // Files of 0 to 12 entries, given out of order.
        var entries: [ScenarioEntry] = []
        for (file, count) in [("m.lua", 7), ("b/z.lua", 1), ("a.lua", 12), ("broken.lua", 0), ("c.lua", 5), ("q.lua", 3)] {
            if count == 0 {
                entries.append(ScenarioEntry(
                    file: file, index: 0, name: ScenarioResult.fileFailureName,
                    known: ScenarioResult(file: file, name: ScenarioResult.fileFailureName, outcome: .failed("x"))))
            }
            for index in stride(from: 1, through: count, by: 1) {
                entries.append(ScenarioEntry(file: file, index: index, name: "s\(index)"))
            }
        }
        let key = { (entry: ScenarioEntry) in "\(entry.file)#\(entry.index)" }
        let all = entries.map(key)
        var generator = SystemRandomNumberGenerator()
        for count in 1...12 {
            let shards = try (1...count).map { try ScenarioShard(index: $0, count: count).select(entries).map(key) }
            // Union is everything, pairwise disjoint: the concatenation is a permutation of all.
            #expect(shards.flatMap { $0 }.sorted() == all.sorted(), "n = \(count)")
            // Balanced: sizes differ by at most one.
            let sizes = shards.map(\.count)
            #expect(sizes.max()! - sizes.min()! <= 1, "n = \(count): \(sizes)")
            // Each shard keeps the run's order.
            for shard in shards {
                #expect(shard == all.filter(shard.contains), "n = \(count)")
            }
            // The split depends on the entries, not on the order the files were given in.
            let shuffled = Dictionary(grouping: entries, by: \.file).values.shuffled(using: &generator).flatMap { $0 }
            for (offset, shard) in shards.enumerated() {
                let again = try ScenarioShard(index: offset + 1, count: count).select(shuffled).map(key)
                #expect(Set(again) == Set(shard), "n = \(count)")
            }
        }
        #expect(try ScenarioShard(index: 1, count: 1).select(entries).map(key) == all)
        #expect(try ScenarioShard(index: 1, count: 3).select([]).isEmpty)
    }

    @Test func shardsRunTheirPartOfARealSuite() async throws {
        let directory = try TemporaryDirectory("scenarios", files: Self.suite.merging(["app.lua": Self.app]) { $1 })
        defer { directory.remove() }
        let files = ["a.lua", "b.lua", "c.lua", "d.lua"].map(directory.path)
        let runner = ScenarioRunner(options: .init(app: directory.path("app.lua"), timeout: .seconds(60), jobs: 2))
        let all = Self.shown(await runner.run(files: files))
        var union: [String] = []
        for index in 1...3 {
            let part = Self.shown(await runner.run(files: files, shard: try ScenarioShard(index: index, count: 3)))
            #expect(part == all.filter(part.contains))
            union += part
        }
        #expect(union.sorted() == all.sorted())
    }

    @Test func shardSyntax() throws {
        #expect(try ScenarioShard(parsing: "1/1") == ScenarioShard(index: 1, count: 1))
        #expect(try ScenarioShard(parsing: "3/8") == ScenarioShard(index: 3, count: 8))
        #expect(try ScenarioShard(parsing: "8/8").description == "8/8")
        for bad in ["", "1", "0/3", "4/3", "1/0", "-1/2", "1/-2", "a/b", "1/2/3", " 1/2", "1 /2", "1/", "/2", "+1/2", "1.0/2"] {
            #expect(throws: ScenarioShard.Invalid.self, "\(bad)") { try ScenarioShard(parsing: bad) }
        }
        #expect(throws: ScenarioShard.Invalid.self) { try ScenarioShard(parsing: "4/3") }
        do {
            _ = try ScenarioShard(parsing: "4/3")
        } catch {
            #expect(error.description == "the shard index must be between 1 and 3, not 4")
        }
    }
}
