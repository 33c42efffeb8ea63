import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import TestSupport
import Testing
@testable import PortolanShipping

/// Issue 11, part 1: `expect_events`, `exhaustive()` and `--exhaustive`, `scenario.each`, and the
/// routes a failing scenario's report lists.
@Suite struct ExhaustiveScenarioTests {
    /// A tabbed app: `secret` is guarded (denied unless `open`), `gate` redirects to `a`, and
    /// entering `broken` fails after `a` was left on the way, so the route is undone (an
    /// instruction that fails is not an event; its undo is).
    static let app = """
        open = false
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", children = {
                { id = "a" },
                { id = "broken", enter = function() error("cannot show broken") end } } },
            { id = "secret", guard = function() if not open then return portolan.deny("closed") end end },
            { id = "gate", guard = function() return portolan.redirect { "root", "home", "a" } end },
          },
        }
        """

    static func run(_ scenarios: String, exhaustive: Bool = false) async throws -> [ScenarioResult] {
        let directory = try TemporaryDirectory(files: ["app.lua": app, "s.lua": scenarios])
        defer { directory.remove() }
        let runner = ScenarioRunner(options: .init(
            app: directory.path("app.lua"), timeout: .seconds(60), exhaustive: exhaustive))
        return await runner.run(files: [directory.path("s.lua")])
    }

    static func message(_ result: ScenarioResult) -> String {
        if case .failed(let message) = result.outcome { return message }
        return "(not failed: \(result.outcome))"
    }

    /// The message without its `…/s.lua:N: ` prefix, and that line number.
    static func located(_ message: String) -> (line: Int?, text: String) {
        guard let match = message.firstMatch(of: #/^[^\n]*s\.lua:([0-9]+): /#) else { return (nil, message) }
        return (Int(match.output.1), String(message[match.range.upperBound...]))
    }

    @Test func expectEventsAssertsTheEventsSinceTheLastCallInCanonicalText() async throws {
        let results = try await Self.run("""
            scenario("every kind of event", function()
              portolan.route { "root", "home", "a" }
              expect_events { "will_route root > home > a", "enter a", "did_route root > home > a" }
              expect_events {}
              portolan.route { "root", "secret" }
              portolan.route { "root", "gate" }
              expect_events {
                "will_route root > secret", "failed denied root > secret",
                "will_route root > gate", "redirected root > gate -> root > home > a", "did_route root > home > a",
              }
              portolan.route { "root", "home", "broken" }
              expect_events {
                "will_route root > home > broken", "leave a", "rolled_back enter a",
                "failed handler_failed root > home > broken",
              }
            end)
            """)
        try #require(results.count == 1)
        #expect(results[0].outcome == .passed, "\(Self.message(results[0]))")
    }

    @Test func aMismatchFailsAtItsLineWithALineDiff() async throws {
        let results = try await Self.run("""
            scenario("wrong", function()
              portolan.route { "root", "home", "a" }
              expect_events({ "will_route root > home > a", "enter b", "did_route root > home > a" }, "to a")
            end)
            """)
        try #require(results.count == 1)
        let (line, text) = Self.located(Self.message(results[0]))
        #expect(line == 3)
        #expect(text == """
            to a: events differ; - expected, + actual:
                will_route root > home > a
              - enter b
              + enter a
                did_route root > home > a
            """)
    }

    @Test func longRunsOfMatchingEventsAreFolded() {
        let expected = (1...20).map { "enter n\($0)" }
        var actual = expected
        actual[10] = "enter x"
        let diff = LineDiff.lines(expected: expected, actual: actual) ?? []
        #expect(diff == [
            "  … 7 matching", "  enter n8", "  enter n9", "  enter n10", "- enter n11", "+ enter x",
            "  enter n12", "  enter n13", "  enter n14", "  … 6 matching",
        ])
        #expect(LineDiff.lines(expected: expected, actual: expected) == nil)
    }

    @Test func exhaustiveFailsAScenarioThatLeavesEventsUnasserted() async throws {
        let results = try await Self.run("""
            scenario("asserts all", function()
              exhaustive()
              portolan.route { "root", "secret" }
              expect_events { "will_route root > secret", "failed denied root > secret" }
            end)
            scenario("leaves some", function()
              exhaustive()
              portolan.route { "root", "home", "a" }
              expect_events { "will_route root > home > a", "enter a", "did_route root > home > a" }
              portolan.route { "root", "secret" }
            end)
            scenario("not exhaustive", function()
              portolan.route { "root", "home", "a" }
            end)
            """)
        try #require(results.count == 3)
        #expect(results[0].outcome == .passed, "\(Self.message(results[0]))")
        let (line, text) = Self.located(Self.message(results[1]))
        #expect(line == 6)
        #expect(text == """
            exhaustive: 2 events were not asserted by expect_events:
              + will_route root > secret
              + failed denied root > secret
            """)
        #expect(results[2].outcome == .passed)
    }

    @Test func exhaustiveAtTheTopOfAFileOrFromTheRunnerHoldsForEveryScenario() async throws {
        let file = """
            scenario("routes", function() portolan.route { "root", "home", "a" } end)
            scenario("does not route", function() end)
            """
        for results in [try await Self.run("exhaustive()\n" + file), try await Self.run(file, exhaustive: true)] {
            try #require(results.count == 2)
            #expect(Self.message(results[0]).contains("exhaustive: 3 events were not asserted"))
            #expect(results[1].outcome == .passed)
        }
    }

    @Test func expectEventsMisusedNamesTheCallersLine() async throws {
        let results = try await Self.run("""
            scenario("not a list", function() expect_events("enter a") end)
            scenario("not strings", function()
              expect_events { "enter a", 2 }
            end)
            expect_events {}
            """)
        try #require(results.count == 1)
        // The top-level misuse fails the whole file while it is listed.
        #expect(Self.located(Self.message(results[0])) == (5, "expect_events({ ... }) can only be called inside a scenario"))
        let listed = try await Self.run("""
            scenario("not a list", function() expect_events("enter a") end)
            scenario("not strings", function()
              expect_events { "enter a", 2 }
            end)
            """)
        try #require(listed.count == 2)
        #expect(Self.located(Self.message(listed[0])) == (1, "expect_events(events [, message]): events must be a list of strings"))
        #expect(Self.located(Self.message(listed[1])) == (3, "expect_events: event 2 is a number, not a string"))
    }

    @Test func tooManyUnassertedEventsFailWithoutHoldingThemAll() async throws {
        let results = try await Self.run("""
            scenario("routes in a loop", function()
              for _ = 1, 1700 do
                portolan.route { "root", "home", "a" }
                portolan.route { "root", "home" }
              end
              expect_events {}
            end)
            """)
        try #require(results.count == 1)
        let message = Self.message(results[0])
        #expect(message.contains("events since the last expect_events, more than the 10000 kept"), "\(message)")
        // The report keeps the last 200 routes of 3,400, numbered from the first.
        #expect(results[0].routes.first == "(3200 earlier routes not kept)")
        #expect(results[0].routes.last == "3400. root > home: ok (1 instruction)")
        #expect(results[0].routes.count == 201)
    }

    // MARK: scenario.each

    @Test func scenarioEachDeclaresOneScenarioPerRow() async throws {
        let results = try await Self.run("""
            scenario.each({ { "a", 1 }, { "broken", 2 } }, "route to %s: %d instructions", function(id, count)
              local done, err = portolan.route { "root", "home", id }
              expect(done and #done, count, err and err.message)
            end)
            scenario.each({ "home", { where = "x" } }, "row %s", function(row)
              expect(type(row) == "string", true)
            end)
            scenario("plain", function() end)
            """)
        try #require(results.count == 5)
        #expect(results.map(\.name) == [
            "route to a: 1 instructions", "route to broken: 2 instructions", "row home", #"row {where = "x"}"#, "plain",
        ])
        #expect(results.map { $0.outcome == .passed } == [true, false, true, false, true])
        #expect(Self.message(results[1]).contains("cannot show broken"))
    }

    @Test func scenarioEachRefusesRowsThatDoNotFit() async throws {
        for (file, expected) in [
            (#"scenario.each({}, "x", function() end)"#, "scenario.each(rows, name, fn): rows must be a non-empty list"),
            (#"scenario.each({ 1 }, 2, function() end)"#, "scenario.each(rows, name, fn): name must be a string"),
            ("scenario.each({ 1 }, \"x\")", "scenario.each(rows, name, fn): fn must be a function"),
            (#"scenario.each({ "a" }, "n %d", function() end)"#,
             #"scenario.each: row 1 does not fit the name "n %d": bad argument #2 to 'format' (number expected, got string)"#),
        ] {
            let results = try await Self.run("\n" + file)
            try #require(results.count == 1)
            #expect(Self.located(Self.message(results[0])) == (2, expected), "\(file)")
        }
    }

    // MARK: Reports

    @Test func aFailingScenarioReportListsItsRoutesInEveryFormat() async throws {
        let results = try await Self.run("""
            scenario("fails", function()
              portolan.route { "root", "gate" }
              portolan.route { "root", "secret" }
              print("printed")
              expect(1, 2)
            end)
            scenario("passes", function() portolan.route { "root", "home", "a" } end)
            """)
        try #require(results.count == 2)
        let routes = ["1. root > gate, redirected to root > home > a: ok (1 instruction)", "2. root > secret: failed denied: closed"]
        #expect(results[0].routes == routes)

        let text = TextScenarioReporter().report(results[0]) ?? ""
        #expect(text.contains("     routes:\n       \(routes[0])\n       \(routes[1])\n     output:\n       | printed"), "\(text)")
        #expect(TextScenarioReporter().report(results[1])?.contains("routes:") == false)

        var tap = TAPScenarioReporter()
        let tapText = tap.report(results[0]) ?? ""
        #expect(tapText.contains("  routes:\n    - \"\(routes[0])\"\n    - \"\(routes[1])\"\n"), "\(tapText)")

        var junit = JUnitScenarioReporter()
        _ = junit.report(results[0])
        let xml = junit.finish(ScenarioSummary(results.prefix(1))) ?? ""
        let systemOut = "routes:\n  \(routes[0])\n  \(routes[1])\noutput:\n  | printed"
        #expect(xml.contains("<system-out>\(Escaping.xml(systemOut))</system-out>"), "\(xml)")
    }

    @Test func tapQuotesRouteLinesAsYAMLStrings() {
        #expect(TAPScenarioReporter.quoted(#"a "b" \ c"# + "\u{1}") == #""a \"b\" \\ c\x01""#)
    }
}
