@testable import PortolanTools
import Testing
import TestSupport

/// `portolan explore` on the demo app: what it finds is only what docs/explore.md explains (the
/// demo's `logged_in` is a global, not `portolan.state`, so dashboard states do not survive a
/// restore in a fresh host, and `related`, pushed only from them, is never shown).
@Suite struct ExploreDemoTests {
    @Test func theDemoHasNoFindingTheDocsDoNotExplain() async throws {
        let app = Repository.path("Examples/movies/app.lua")
        let report = try await Explorer(app: app, options: .init(depth: 2, scenarioFiles: ExploreScenarioFiles.beside(app: app))).run()
        #expect(report.states.count > 100)
        for finding in report.findings {
            let explained = finding.kind == .snapshotLoss || (finding.kind == .unreachable && finding.node == "related")
            #expect(explained, "\(finding.summary)")
        }
        #expect(report.visitedNodes.contains("wishlist_cast"))
    }
}
