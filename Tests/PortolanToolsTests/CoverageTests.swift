import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// Coverage as a library: what the collector counts from a scenario's routes, merging across
/// scenarios, jobs and shards, and the text and HTML reports.
@Suite struct CoverageTests {
    static let root = Repository.root

    static let portusApp = root + "/Examples/portus/app.lua"
    static let portusScenarios = root + "/Examples/portus/portus.lua"

    /// The test's files: Swift Testing makes the suite anew for each test, and the directory goes
    /// with it when the test ends.
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("coverage")
    }

    private func file(_ text: String, named name: String = "s.lua") throws -> String {
        try scratch.write(name, text)
        return scratch.path(name)
    }

    private static func run(
        _ files: [String], app: String = portusApp, jobs: Int = 1, shard: ScenarioShard? = nil
    ) async throws -> (results: [ScenarioResult], coverage: Coverage) {
        // The time limit is a safety net against a hang, not a measure: at 20 s, a machine loaded
        // by parallel builds cut the listing of these small files (81 s of wall time).
        let runner = ScenarioRunner(options: .init(app: app, timeout: .seconds(120), jobs: jobs, coverage: true))
        let results = await runner.run(files: files, shard: shard)
        let graph = try await runner.appGraph()
        return (results, ScenarioRunner.coverage(of: results, graph: graph))
    }

    private static func edges(_ pairs: [(String, String)]) -> Set<GraphEdgeID> {
        Set(pairs.map { GraphEdgeID(from: $0.0, to: $0.1) })
    }

    // MARK: The collector

    @Test func aRouteCoversTheNodesEdgesAndSwitchTargetsOnItsWay() async throws {
        let file = try file("""
            local portolan = require "portolan"
            scenario("into switchNode3", function()
              expect(portolan.route { "switchNode1", "node2", "switchNode3", "node12" },
                     { "switch switchNode1 -> node2", "enter switchNode3", "switch switchNode3 -> node12" })
            end)
            """)
        let (results, coverage) = try await Self.run([file])
        let record = try #require(results.first?.coverage)
        // The initial path (switchNode1 > node1) and every path the route went through: entering
        // switchNode3 showed its initial child node13 before the switch to node12.
        #expect(record.nodes == ["switchNode1", "node1", "node2", "switchNode3", "node13", "node12"])
        #expect(record.edges == Self.edges([
            ("switchNode1", "node1"), ("switchNode1", "node2"), ("node2", "switchNode3"),
            ("switchNode3", "node13"), ("switchNode3", "node12"),
        ]))
        // Only what a switch instruction ran for: not node1 (initial) nor node13 (entered with its parent).
        #expect(record.switchTargets == Self.edges([("switchNode1", "node2"), ("switchNode3", "node12")]))
        #expect(record.anywhereEntries.isEmpty)
        #expect(record.patternHits.isEmpty)
        #expect(coverage.scenarios == 1)
        #expect(coverage.uncoveredNodes == ["switchNode2", "node3", "node4", "node5", "node8", "node9", "node10", "node6", "node11", "node7"])
        #expect(coverage.summary.map(\.description) == [
            "nodes 6/16 (37%)", "edges 5/15 (33%)", "switch targets 2/7 (28%)", "URL patterns 0/0 (n/a)",
        ])
    }

    @Test func theInitialTreeCoversNodesButNoSwitchTarget() async throws {
        let file = try file("""
            scenario("does nothing", function() end)
            """)
        let (results, _) = try await Self.run([file])
        let record = try #require(results.first?.coverage)
        #expect(record.nodes == ["switchNode1", "node1"])
        #expect(record.edges == Self.edges([("switchNode1", "node1")]))
        #expect(record.switchTargets.isEmpty)
    }

    @Test func anywhereEntriesURLPatternsAndHostReportsAreCounted() async throws {
        let app = try file("""
            local portolan = require "portolan"
            portolan.app {
              id = "root", kind = "switch", active = "home",
              children = {
                { id = "home", route = "/home", children = { { id = "item", route = "/items/:id<int>" } } },
                { id = "other", route = { "/other", "app://other" } },
              },
              anywhere = { { id = "sheet", route = "/sheet", children = { { id = "page" } } } },
            }
            """, named: "app.lua")
        let scenarios = try file("""
            local portolan = require "portolan"
            scenario("links", function()
              expect(portolan.route "/items/7", { "enter item {id=7}" })
              expect(portolan.route "/items/8", { "leave item {id=7}", "enter item {id=8}" })
              expect(portolan.route "/sheet", { "enter sheet" })
              expect(portolan.route { "root", "home", { id = "item", context = { id = 8 } }, "sheet", "page" }, { "enter page" })
            end)
            scenario("the host switches", function()
              portolan.did_switch("root", "other")
              expect(portolan.active_path(), { "root", "other" })
              local ok, err = portolan.route "/nowhere"
              expect(ok, nil)
            end)
            scenario("fails halfway, what ran counts", function()
              expect(portolan.route "/sheet", { "enter sheet" })
              error("stop here")
            end)
            """)
        let (results, coverage) = try await Self.run([scenarios], app: app)
        try #require(results.map(\.isFailure) == [false, false, true], "\(results)")
        #expect(results[0].coverage?.patternHits == [
            CoveredPattern(node: "item", pattern: "/items/:id<int>"): 2, CoveredPattern(node: "sheet", pattern: "/sheet"): 1,
        ])
        #expect(results[0].coverage?.anywhereEntries == Self.edges([("item", "sheet")]))
        #expect(results[0].coverage?.edges.contains(GraphEdgeID(from: "sheet", to: "page")) == true)
        #expect(results[1].coverage?.switchTargets == Self.edges([("root", "other")]))
        #expect(results[2].coverage?.anywhereEntries == Self.edges([("home", "sheet")]))

        #expect(coverage.scenarios == 3)
        #expect(coverage.uncoveredNodes.isEmpty)
        #expect(coverage.uncoveredEdges.isEmpty)
        #expect(coverage.uncoveredSwitchTargets == [GraphEdgeID(from: "root", to: "home")])
        #expect(coverage.uncoveredPatterns.map(\.description) == ["/home (home)", "/other (other)", "app://other (other)"])
        #expect(coverage.patternHits[CoveredPattern(node: "sheet", pattern: "/sheet")] == 2)
        #expect(coverage.patternScenarios[CoveredPattern(node: "sheet", pattern: "/sheet")] == 2)
        #expect(coverage.anywhereEntries == [GraphEdgeID(from: "home", to: "sheet"), GraphEdgeID(from: "item", to: "sheet")])
        #expect(coverage.nodeScenarios["root"] == 3)
    }

    @Test func withoutCoverageResultsCarryNone() async throws {
        let runner = ScenarioRunner(options: .init(app: Self.portusApp))
        let results = await runner.run(files: [Self.portusScenarios])
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { $0.coverage == nil })
    }

    // MARK: Merging

    @Test func jobsAndShardsGiveTheSameCoverageAsOneJob() async throws {
        let files = [Self.portusScenarios, Self.root + "/Examples/movies/scenarios/tabs.lua"]
        // The Portus scenarios only: the movies file needs its own app, so run it separately.
        let (_, one) = try await Self.run([files[0]])
        let (_, two) = try await Self.run([files[0]], jobs: 2)
        #expect(one == two)
        var merged = Coverage(graph: one.graph)
        for index in 1...3 {
            let (_, part) = try await Self.run([files[0]], jobs: 2, shard: try ScenarioShard(index: index, count: 3))
            merged.merge(part)
        }
        #expect(merged == one)
        // Records in any order merge to the same value.
        let (results, _) = try await Self.run([files[0]])
        let records = results.compactMap(\.coverage)
        #expect(Coverage(graph: one.graph, records: records.reversed()) == one)

        let movies = Self.root + "/Examples/movies/app.lua"
        let (_, moviesOne) = try await Self.run([files[1]], app: movies)
        let (_, moviesTwo) = try await Self.run([files[1]], app: movies, jobs: 2)
        #expect(moviesOne == moviesTwo)
        #expect(moviesOne.scenarios > 0)
    }

    // MARK: Reports

    @Test func theTextReportScoresAndListsWhatWasNeverExercised() async throws {
        let (_, coverage) = try await Self.run([Self.portusScenarios])
        let text = CoverageReport.text(coverage, app: "Examples/portus/app.lua", htmlFile: "c.html")
        let lines = text.split(separator: "\n").map(String.init)
        try #require(lines.count >= 5, "\(text)")
        #expect(lines.first?.wholeMatch(of: /coverage of Examples\/portus\/app\.lua \([0-9]+ scenarios\):/) != nil, "\(text)")
        #expect(lines[1].wholeMatch(of: /\ \ nodes [0-9]+\/16 \([0-9]+%\)/) != nil, "\(text)")
        #expect(lines[2].wholeMatch(of: /\ \ edges [0-9]+\/15 \([0-9]+%\)/) != nil, "\(text)")
        #expect(lines[3].wholeMatch(of: /\ \ switch targets [0-9]+\/7 \([0-9]+%\)/) != nil, "\(text)")
        #expect(lines[4] == "  URL patterns 0/0 (n/a)")
        #expect(lines.last == "HTML report: c.html")
        // Each uncovered item is listed, in declaration order.
        for count in coverage.summary where count.covered < count.total {
            #expect(text.contains("  \(count.category) (\(count.total - count.covered)): "), "\(text)")
        }
        if let node = coverage.uncoveredNodes.first {
            #expect(lines.contains { $0.hasPrefix("  nodes (") && $0.hasSuffix(coverage.uncoveredNodes.joined(separator: ", ")) && $0.contains(node) })
        }
    }

    @Test func aFixedRunGivesAFixedReport() async throws {
        let file = try file("""
            local portolan = require "portolan"
            scenario("one", function()
              portolan.route { "switchNode1", "node1", "node5", "node8" }
              portolan.route { "switchNode1", "node2", "node7" }
            end)
            """)
        let (_, coverage) = try await Self.run([file])
        #expect(CoverageReport.text(coverage, app: "portus") == """
            coverage of portus (1 scenario):
              nodes 6/16 (37%)
              edges 5/15 (33%)
              switch targets 1/7 (14%)
              URL patterns 0/0 (n/a)
            never exercised:
              nodes (10): switchNode2, node3, node4, node9, node10, node6, node11, switchNode3, node12, node13
              edges (10): switchNode1 -> switchNode2, switchNode2 -> node3, switchNode2 -> node4, node5 -> node9, node5 -> node10, node1 -> node6, node6 -> node11, node2 -> switchNode3, switchNode3 -> node12, switchNode3 -> node13
              switch targets (6): switchNode1 -> switchNode2, switchNode2 -> node3, switchNode2 -> node4, switchNode1 -> node1, switchNode3 -> node12, switchNode3 -> node13
            """)
    }

    @Test func countsRoundDown() {
        #expect(CoverageCount(category: "nodes", covered: 12, total: 16).description == "nodes 12/16 (75%)")
        #expect(CoverageCount(category: "edges", covered: 199, total: 200).percentText == "99%")
        #expect(CoverageCount(category: "edges", covered: 0, total: 0).ratio == "0/0 (n/a)")
    }

    @Test func theHTMLPageHoldsTheSummaryTheClassedSVGAndTheLists() async throws {
        let (_, coverage) = try await Self.run([try file("""
            local portolan = require "portolan"
            scenario("one", function()
              portolan.route { "switchNode1", "node1", "node5", "node8" }
              portolan.route { "switchNode1", "node2", "node7" }
            end)
            """)])
        let html = CoverageHTML.render(coverage, app: "Examples/portus/app.lua")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<?xml"))
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.contains(#"<tr data-category="nodes"><th scope="row">nodes</th><td class="covered-count">6</td><td class="total">16</td><td class="percent">37%</td>"#))
        #expect(html.contains(#"<tr data-category="URL patterns"><th scope="row">URL patterns</th><td class="covered-count">0</td><td class="total">0</td><td class="percent">n/a</td>"#))
        #expect(html.contains(#"<g class="node screen covered" data-id="node8">"#))
        #expect(html.contains(#"<g class="node screen uncovered" data-id="node10">"#))
        #expect(html.contains(#"<g class="node switch covered" data-id="switchNode1">"#))
        #expect(html.contains(#"<path class="edge covered switched" data-from="switchNode1" data-to="node2""#))
        #expect(html.contains(#"<path class="edge selected covered" data-from="switchNode1" data-to="node1""#))
        #expect(html.contains(#"<path class="edge uncovered" data-from="node5" data-to="node10""#))
        #expect(html.contains(#"<ul class="never" id="never-nodes">"#))
        #expect(html.contains("<li><code>node5 -&gt; node10</code></li>"))
        #expect(html.contains(#"<table id="switch-targets">"#))
        #expect(html.contains(#"id="browser-check""#))
        #expect(html.contains("<script>"))
        #expect(!html.contains("src=") && !html.contains("href="), "self-contained")
    }

    @Test func theHTMLEscapesWhatItQuotes() throws {
        let graph = try NavigationGraph(root: NodeSpec("r<&>", children: [NodeSpec("c\"'", routes: ["/a/<b>"])]))
        let html = CoverageHTML.render(Coverage(graph: graph), app: "<script>x</script>")
        #expect(!html.contains("<script>x"))
        #expect(html.contains("&lt;script&gt;x&lt;/script&gt;"))
        #expect(html.contains("<code>/a/&lt;b&gt;</code>"))
        #expect(html.contains("<code>c&quot;&#39;</code>"))
    }
}
