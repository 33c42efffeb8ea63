import Portolan
import PortolanLua
import PortolanShipping
@testable import PortolanTools
import Testing
import TestSupport

/// Findings that say what is so (issue 36): a guard loop is one finding however many routes run
/// into it; an unreachable screen's repro takes the state changes its way needs, so it passes once
/// the screen is reachable; and a screen a limit may have hidden says so.
@Suite struct ExploreHonestFindingsTests {
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("honest")
    }

    /// docs/explore.md's first run: a guard loop entered by routes and URLs to either of its screens.
    private static let loop = """
        local portolan = require "portolan"
        portolan.initial_state { logged_in = false, verified = false }
        portolan.app {
          id = "root", kind = "switch", active = "login",
          explore = { state = { logged_in = { true, false }, verified = { true, false } } },
          children = {
            { id = "login", route = "/login" },
            { id = "verify", route = "/verify", guard = function()
                if not portolan.state.logged_in then return portolan.redirect { "root", "account" } end
              end },
            { id = "account", route = "/account", guard = function()
                if not portolan.state.verified then return portolan.redirect { "root", "verify" } end
              end },
          },
        }
        """

    @Test func aGuardLoopIsOneFindingWithItsWitnesses() async throws {
        let report = try await Explorer(app: try scratch.write("app.lua", Self.loop)).run()
        let loops = report.findings.indices.filter { report.findings[$0].kind == .redirectLoop }
        try #require(loops.count == 1, "\(report.findings.map(\.summary))")
        #expect(report.repeats[loops[0]] >= 3, "routes and URLs to verify and to account all run into it")
        let losses = report.findings.filter { $0.kind == .snapshotLoss }
        #expect(losses.count == 1, "the states the loop refuses to restore are one fault: \(losses.map(\.summary))")
    }

    @Test func aLoopIsTheSameLoopFromEitherEnd() {
        #expect(ExploreChecks.cycleKey(["'root > verify'", "'root > account'"])
            == ExploreChecks.cycleKey(["'root > account'", "'root > verify'"]))
        #expect(ExploreChecks.cycleKey(["a", "b", "c"]) != ExploreChecks.cycleKey(["a", "c", "b"]))
        #expect(ExploreChecks.cycleKey([]) == "")
    }

    @Test func theLoopsLocationsAreNamedWithoutTheURLThatLedThere() async throws {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source(Self.loop, chunkName: "=loop"))
        guard case .failure(let failure) = await host.route(url: "/verify") else {
            Issue.record("the loop settled")
            return
        }
        #expect(failure.message.contains("(/verify)"))
        #expect(failure.redirectLoop == ["'root > verify'", "'root > account'"])
    }

    /// Orders sit behind the account's login guard, and its own guard refuses everyone: the bug.
    private static func shop(ordersRefuse: Bool) -> String {
        """
        local portolan = require "portolan"
        portolan.initial_state { logged_in = false }
        portolan.app {
          id = "root", kind = "switch", active = "home",
          explore = { state = { logged_in = { true, false } } },
          children = {
            { id = "home" },
            { id = "account",
              guard = function()
                if not portolan.state.logged_in then return portolan.redirect { "root", "home" } end
              end,
              children = {
                { id = "orders", guard = function() \(ordersRefuse ? "return portolan.deny(\"bug\")" : "") end },
              } },
          },
        }
        """
    }

    @Test func anUnreachableScreensReproTakesTheStateChangesItsWayNeeds() async throws {
        let broken = try scratch.write("broken.lua", Self.shop(ordersRefuse: true))
        let report = try await Explorer(app: broken).run()
        let unreachable = report.findings.filter { $0.kind == .unreachable }
        try #require(unreachable.count == 1, "\(report.findings.map(\.summary))")
        let finding = unreachable[0]
        #expect(finding.node == "orders")
        #expect(finding.path == "root > account", "the first state that shows its parent")
        #expect(report.actions(to: finding.state).map(\.description) == ["state logged_in = true", "route root > account"])
        #expect(!finding.evidence.contains("limit"), "no limit was reached: \(finding.evidence)")

        let repro = ExploreRepro.scenario(for: finding, in: report, from: nil)
        try scratch.write("repro.lua", repro)
        let failing = await ScenarioRunner(options: .init(app: broken)).run(file: scratch.path("repro.lua"))
        try #require(failing.count == 1)
        guard case .failed = failing[0].outcome else {
            Issue.record("the repro passes on the broken app: \(failing[0].outcome)")
            return
        }
        let fixed = try scratch.write("fixed.lua", Self.shop(ordersRefuse: false))
        let passing = await ScenarioRunner(options: .init(app: fixed)).run(file: scratch.path("repro.lua"))
        try #require(passing.count == 1)
        #expect(passing[0].outcome == .passed, "once orders can be reached the repro passes: \(passing[0].outcome)\n\(repro)")
    }

    @Test func anUnreachableScreenALimitMayHaveHiddenSaysSo() async throws {
        let fixed = try scratch.write("app.lua", Self.shop(ordersRefuse: false))
        let report = try await Explorer(app: fixed, options: .init(depth: 1)).run()
        // The account takes a login and a route, two actions: neither it nor orders shows.
        let unreachable = report.findings.filter { $0.kind == .unreachable }
        #expect(Set(unreachable.compactMap(\.node)) == ["account", "orders"], "\(report.findings.map(\.summary))")
        for finding in unreachable {
            #expect(finding.evidence.contains("the depth limit 1 left"), "\(finding.evidence)")
            #expect(finding.evidence.hasSuffix("which may show it"))
        }
    }
}
