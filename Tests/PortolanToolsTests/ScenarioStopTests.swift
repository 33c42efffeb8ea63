import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// A scenario's host ends the file's top level once the selected scenario has run (the expect
/// library's `stop`): what follows it in the file does not run there, so a scenario costs what the
/// file before it costs. The listing still runs the whole file. (docs/scenarios.md, "What a
/// scenario's run sees of its file".)
@Suite struct ScenarioStopTests {
    /// Runs `scenarios` (no app) under `selection`, and the results with their file's Lua name.
    static func run(
        _ scenarios: String, selection: ScenarioSelection = .init()
    ) async throws -> (file: String, results: [ScenarioResult]) {
        let directory = try TemporaryDirectory("stop", files: ["s.lua": scenarios])
        defer { directory.remove() }
        let runner = ScenarioRunner(options: .init(timeout: .seconds(60), grace: .milliseconds(500)))
        let file = directory.path("s.lua")
        return (ScenarioRunner.luaName(of: file), await runner.run(files: [file], selection: selection))
    }

    static func outcomes(_ results: [ScenarioResult]) -> [String] {
        results.map { "\($0.name): " + (ScenarioRunnerTests.message($0) ?? "\($0.outcome)") }
    }

    /// Before, `a`'s host ran on past it into the error (and into the endless loop after `b`).
    @Test func theTopLevelAfterTheSelectedScenarioDoesNotRunInItsHost() async throws {
        let (_, results) = try await Self.run("""
            scenario("a", function() ran_a = true end)
            if ran_a then error("the top level after a ran in a's host") end
            print("after a")
            scenario("b", function() ran_b = true end)
            while ran_b do end
            """)
        guard results.count == 2 else {
            Issue.record("two scenarios, saw \(Self.outcomes(results))")
            return
        }
        #expect(results.map(\.outcome) == [.passed, .passed], "\(Self.outcomes(results))")
        #expect(results[0].output.isEmpty, "\(results[0].output)")
        #expect(results[1].output == ["after a"], "\(results[1].output)")
    }

    @Test func aLaterTopLevelErrorStillFailsTheFileWhenListed() async throws {
        let (file, results) = try await Self.run("""
            scenario("a", function() end)
            error("later top level")
            """)
        guard results.count == 1 else {
            Issue.record("one entry, saw \(Self.outcomes(results))")
            return
        }
        #expect(results[0].name == ScenarioResult.fileFailureName)
        #expect(ScenarioRunnerTests.message(results[0])?.contains("\(file):2: later top level") == true,
                "\(Self.outcomes(results))")
    }

    @Test func eachScenariosTearDownRunsBeforeTheStopAndLaterHooksDoNotApply() async throws {
        let (_, results) = try await Self.run("""
            before_each(function() print("set up") end)
            after_each(function() print("torn down") end)
            scenario("a", function() print("a") end)
            after_each(function() print("later tear-down") end)
            scenario("b", function() print("b") end)
            after_each(function() error("a tear-down that fails") end)
            scenario("c", function() end)
            """)
        guard results.count == 3 else {
            Issue.record("three scenarios, saw \(Self.outcomes(results))")
            return
        }
        #expect(results[0].outcome == .passed)
        #expect(results[0].output == ["set up", "a", "torn down"])
        #expect(results[1].outcome == .passed)
        #expect(results[1].output == ["set up", "b", "later tear-down", "torn down"])
        #expect(ScenarioRunnerTests.message(results[2])?.contains("a tear-down that fails") == true,
                "\(Self.outcomes(results))")
    }

    @Test func onlySkipAndFilterRunTheScenariosTheySelectAndStopAfterEach() async throws {
        let file = """
            scenario("a", function() ran_a = true end)
            scenario.skip("b", function() error("skipped, never run") end)
            scenario.only("c", function() ran_c = true end)
            scenario.only("d", function() ran_d = true end)
            if ran_a or ran_c or ran_d then error("ran past the selected scenario") end
            """
        let (_, focused) = try await Self.run(file)
        #expect(Self.outcomes(focused) == ["c: passed", "d: passed"])
        let (_, filtered) = try await Self.run(
            file, selection: try ScenarioSelection(filter: "^[abd]$", forbidsOnly: true))
        #expect(Self.outcomes(filtered) == [
            "a: passed", "b: skipped(\"scenario.skip\")", "d: \(ScenarioSelection.forbiddenOnly)",
        ])
    }

    /// A `pcall` in the file that catches the stop only delays it to the next declaration; what the
    /// file does between counts no more than what follows the stop.
    @Test func aFileThatCatchesTheStopIsStoppedAtItsNextDeclaration() async throws {
        let (_, results) = try await Self.run("""
            local caught = pcall(function() scenario("a", function() end) end)
            scenario("b", function() end)
            if not caught then error("reached after the second stop") end
            """)
        #expect(Self.outcomes(results) == ["a: passed", "b: passed"])
    }

    /// The scenario's own failures are unchanged: they end the file as before, with their message.
    @Test func aFailingOrSkippedScenarioIsReportedAsBefore() async throws {
        let (file, results) = try await Self.run("""
            scenario("fails", function() expect(1, 2) end)
            scenario("skips", function() skip("not today") end)
            scenario("each", function() end)
            scenario.each({ 1, 2 }, "row %d", function(n) expect(n, 1) end)
            """)
        #expect(Self.outcomes(results) == [
            "fails: \(file):1: expected 2 but got 1", "skips: skipped(\"not today\")", "each: passed",
            "row 1: passed", "row 2: \(file):4: expected 1 but got 2",
        ])
    }

    /// A scenario's verdict is its first terminal outcome: a tear-down can add a failure, never turn
    /// one into a skip (issue 34). Before, `skip()` in `after_each` made a failing scenario a skip,
    /// and the run exited 0.
    @Test func aTearDownCannotTurnAFailureIntoASkip() async throws {
        let (file, results) = try await Self.run("""
            after_each(function() skip("cleaning up") end)
            scenario("fails", function() expect(1, 2) end)
            scenario("passes", function() end)
            """)
        let outcomes = Self.outcomes(results)
        try #require(outcomes.count == 2, "\(outcomes)")
        #expect(outcomes[0].hasPrefix("fails: \(file):2: expected 2 but got 1"), "\(outcomes)")
        #expect(outcomes[1].hasPrefix("passes: \(file):1: skip(reason) cannot be called from after_each"), "\(outcomes)")
        #expect(results.allSatisfy { !$0.isSkipped }, "\(outcomes)")
    }
}
