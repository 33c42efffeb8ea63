import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport

/// Issue 35, §1: `explore` sees a guard and a flow declared from Swift (`ExploreOptions.embed`), as
/// it sees the script's: the guard's refusal and the flow's steps are the engine's, whoever wrote them.
@Suite struct ExploreSwiftRulesTests {
    static let app = """
        local portolan = require "portolan"
        portolan.app { id = "root", children = {
          { id = "home" }, { id = "vault" }, { id = "shelf" },
        } }
        """

    /// The vault is closed to everyone.
    struct ClosedVault: Guarded {
        func guardRoute(_ request: RouteRequest) async throws -> InterceptionDecision { .deny("the vault is closed") }
    }

    static let embed: @Sendable (PortolanHost) async -> Void = { host in
        await host.bind(ClosedVault(), to: "vault")
        await host.addFlow(Flow(name: "rooms", steps: ["shelf_wanted", "vault_wanted"]) { step in
            switch step.name {
            case "shelf_wanted": .destination(.path([Entry("root"), Entry("shelf")]))
            case "vault_wanted": .destination(.path([Entry("root"), Entry("vault")]))
            default: nil
            }
        })
    }

    @Test func aSwiftGuardsRefusalIsAFindingAndASwiftFlowsStepsAreExplored() async throws {
        let directory = try TemporaryDirectory("explore-swift-rules", files: ["app.lua": Self.app])
        defer { directory.remove() }
        var options = ExploreOptions(depth: 2)
        options.embed = Self.embed
        let report = try await Explorer(app: directory.path("app.lua"), options: options).run()
        let summaries = report.findings.map(\.summary)
        // Nothing reaches the vault: its Swift guard denies every route there.
        #expect(report.findings.contains { $0.kind == .unreachable && $0.node == "vault" }, "\(summaries)")
        #expect(!report.visitedNodes.contains("vault"))
        // The flow's steps are explored: one reaches the shelf, the other is refused by the guard.
        let stepEdges = report.edges.filter { if case .step = $0.action { true } else { false } }
        let toShelf = try #require(stepEdges.first { $0.action.description.contains("shelf_wanted") }, "\(stepEdges)")
        let shelfState = try #require(toShelf.to)
        try #require(shelfState < report.states.count)
        #expect(report.states[shelfState].path.last?.id == "shelf")
        let toVault = stepEdges.filter { $0.action.description.contains("vault_wanted") }
        #expect(!toVault.isEmpty && toVault.allSatisfy { $0.to == $0.from }, "\(stepEdges)")

        // Without the Swift side the vault is reached and no step is tried.
        let bare = try await Explorer(app: directory.path("app.lua"), options: .init(depth: 2)).run()
        #expect(bare.visitedNodes.contains("vault"))
        #expect(bare.findings.isEmpty, "\(bare.findings.map(\.summary))")
    }
}
