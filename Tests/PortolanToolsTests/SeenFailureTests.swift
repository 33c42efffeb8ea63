import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// Issue 20 in the tools. §3: a request refused before it became a route (a URL that leads
/// nowhere) is seen everywhere a route is — the REPL's `:history` and `:events`, a recording, a
/// failing scenario's `routes:` list, the inspector's log with its message — where before the
/// REPL only printed it, and the rest never heard of it. §2: `:plan` runs the guards, and `check`
/// warns of a decision that changes state.
@Suite struct SeenFailureTests {
    typealias Fixture = ReplSessionTests.Fixture

    @Test func aURLThatLeadsNowhereEntersTheHistoryAndTheEvents() async throws {
        let repl = try await Fixture()
        await repl.feed(":events on")
        #expect(await repl.feed("/nowhere") == [
            "· failed unreachable /nowhere: unreachable: no route matches '/nowhere'",
            "failed: unreachable: no route matches '/nowhere'",
            "active: root > onboarding",
        ])
        await repl.feed(":events off")
        let history = await repl.feed(":history")
        #expect(history.first == "1  /nowhere", "\(history)")
        #expect(history.contains { $0.contains("failed: unreachable: no route matches '/nowhere'") }, "\(history)")
    }

    @Test func aRecordingKeepsAURLThatLeadsNowhereAndReplays() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("recorded.lua")
        let repl = try await Fixture()
        await repl.feed(":record \(file)", "/nowhere", "/settings")
        #expect(await repl.feed(":record off") == ["recorded 2 routes to \(file)"])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains(#"portolan.route("/nowhere")"#), "\(written)")
        let results = try await ReplFeatureTests.runScenarios(file, app: Repository.path("Examples/movies/app.lua"))
        #expect(results.map(\.passed) == [true], "\(results)\n\(written)")
    }

    @Test func aFailingScenarioListsTheURLThatLedNowhere() async throws {
        let results = try await ExhaustiveScenarioTests.run("""
            scenario("fails", function()
              portolan.route "/nowhere"
              portolan.route { "root", "secret" }
              expect(1, 2)
            end)
            """)
        try #require(results.count == 1)
        #expect(results[0].routes == [
            "1. /nowhere: failed unreachable: no route matches '/nowhere'", "2. root > secret: failed denied: closed",
        ])
    }

    @Test func theInspectorLogKeepsAFailuresMessage() throws {
        var snapshot = InspectorSnapshot()
        let failure = RouteFailure(.unreachable, "no route matches '/nowhere'")
        let refused = Router(graph: try NavigationGraph(root: .screen("root"))).refuse(failure, url: "/nowhere")
        snapshot.apply(ReplUpdate(appName: "t", tree: nil, events: [.failed(.path([]), refused)], routes: []))
        #expect(snapshot.events == ["failed unreachable /nowhere: unreachable: no route matches '/nowhere'"])
    }

    @Test func planRunsTheGuardsWhileLoggedOut() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed(":plan /wishlist/movies/42") == [
            "matched /wishlist/movies/:id<int> (wishlist_movie)",
            "redirected to root > onboarding",
            "(nothing to do)",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > onboarding",
        ])
        // The demo's guard keeps the turned-away link on a route only (request.dry_run).
        #expect(await repl.feed("pending_link, portolan.pending()") == ["nil\tnil"])
    }

    @Test func checkWarnsOfADecisionThatChangesState() async {
        let report = await AppChecker.check(source: """
            local portolan = require "portolan"
            local count, seen = 0, {}
            portolan.app { id = "root", children = {
              { id = "a", guard = function(node, request)
                  count = count + 1
                  seen[#seen + 1] = request.url
                  node.visits = 1
                  local mine = {}
                  mine.x = 1
                  request.checked = true
                  if not request.dry_run then last = request.url end
                end,
                can_leave = function() portolan.route { "root" } return true end },
            } }
            portolan.redirect_rule(function(url) hits = (hits or 0) + 1 end)
            """, file: "app.lua")
        let found = report.findings.filter { $0.code == .decisionSideEffect }.map { "\($0.line) \($0.message.prefix(40))" }
        #expect(found == [
            "5 the guard at line 4 assigns 'count', whi",
            "6 the guard at line 4 sets 'seen[…]', on a",
            "7 the guard at line 4 sets 'node.visits', ",
            "13 a can_leave at line 13 calls portolan.ro",
            "15 a redirect rule at line 15 assigns 'hits",
        ], "\(report.text)")
    }

    /// Every function of the module that routes is an effect in a decision, the stack's own
    /// (`push`, `update`, `reset`, …) as much as `route`.
    @Test func everyRoutingFunctionIsAnEffectInADecision() async {
        let calls = ["push \"a\"", "back()", "update \"a\"", "merge \"a\"", "reset { \"root\" }", "remove \"a\"",
                     "replace(\"a\", \"a\")", "step \"next\"", "reset_tabs()", "switch_to(\"root\", \"a\")"]
        for call in calls {
            let report = await AppChecker.check(source: """
                local portolan = require "portolan"
                portolan.app { id = "root", children = {
                  { id = "a", guard = function(node, request) portolan.\(call) end },
                } }
                """, file: "app.lua")
            let found = report.findings.filter { $0.code == .decisionSideEffect }.map(\.message)
            #expect(found.count == 1 && found.first?.contains("calls portolan.") == true, "\(call): \(report.text)")
        }
    }
}
