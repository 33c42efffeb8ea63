@testable import PortolanTools
import Testing
import TestSupport

/// `portolan explore` on the demo app: no finding, every screen shown (its root's `explore` option
/// logs in and out and gives the related movie a context).
@Suite struct ExploreDemoTests {
    @Test func theDemoHasNoFindingAndShowsEveryScreen() async throws {
        let app = Repository.path("Examples/movies/app.lua")
        let report = try await Explorer(app: app, options: .init(depth: 3, scenarioFiles: try ScenarioFiles.beside(app: app))).run()
        #expect(report.states.count > 100)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        #expect(report.visitedNodes.isSuperset(of: report.nodes))
    }
}
