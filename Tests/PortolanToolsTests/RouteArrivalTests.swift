@testable import Portolan
import PortolanLua
@testable import PortolanShipping
@testable import PortolanTools
import Testing
import TestSupport

/// How a route's report says where it went (issue 34): a guard's redirect is "redirected to", and
/// the path a push became is "resolved to". Before, the routes log and `:history` described every
/// push as "redirected to …", which sent a new user looking for a guard that did not exist.
@Suite struct RouteArrivalTests {
    static let app = """
        portolan.app { id = "root", children = {
          { id = "home", children = { { id = "detail", pushes = { "related" }, children = { { id = "related" } } } } },
          { id = "gate", guard = function() return portolan.redirect { "root", "home" } end },
        } }
        """

    @Test func aFailingScenariosRoutesLogTellsAPushFromARedirect() async throws {
        let (_, results) = try await ScenarioRunnerTests.run("""
            scenario("routes", function()
              portolan.route { "root", "home", "detail" }
              portolan.push "related"
              portolan.route { "root", "gate" }
              expect(1, 2)
            end)
            """, app: Self.app)
        try #require(results.count == 1)
        let message = results[0].routes.joined(separator: "\n")
        #expect(message.contains("push related, resolved to root > home > detail > related: ok"), "\(message)")
        #expect(message.contains("root > gate, redirected to root > home: ok"), "\(message)")
        #expect(!message.contains("push related, redirected"), "\(message)")
    }

    @Test func theHistoryTellsAPushFromARedirect() {
        let push = RouteRecord(requested: .push(Entry("detail"), launch: nil), settled: .path(["root", "detail"]), executed: [], failure: nil)
        let redirect = RouteRecord(requested: .path(["root", "gate"]), settled: .path(["root", "home"]), executed: [], failure: nil)
        let direct = RouteRecord(requested: .path(["root", "home"]), settled: .path(["root", "home"]), executed: [], failure: nil)
        #expect(RouteReport.arrival(of: push) == "resolved to")
        #expect(RouteReport.arrival(of: redirect) == "redirected to")
        #expect(RouteReport.arrival(of: direct) == nil)
    }
}
