import PortolanLua
@testable import PortolanShipping
@testable import PortolanTools
import Testing
import TestSupport

/// A scenario's verdict is its own (issue 34): an app whose payment handler always fails cannot
/// make "payment works" pass through a helper that kept the scenario's coroutine. Before, the
/// handler resumed the scenario's flow with `true`, which `portolan.route` returned, and the
/// scenario ran to its end, passed, inside the handler.
@Suite struct ForgedVerdictTests {
    static let app = """
        helper = {}
        function helper.login() helper.flow = coroutine.running() end
        portolan.app { id = "root", children = {
          { id = "pay", enter = function()
              if helper.flow then coroutine.resume(helper.flow, true) end
              error("payment failed")
            end },
        } }
        """

    @Test func aHandlerCannotResumeTheScenarioAndPassIt() async throws {
        let (_, results) = try await ScenarioRunnerTests.run("""
            scenario("payment works", function()
              helper.login()
              expect(portolan.route { "root", "pay" }, true)
            end)
            """, app: Self.app)
        try #require(results.count == 1)
        let message = ScenarioRunnerTests.message(results[0])
        #expect(message?.contains("expected true but got nil") == true, "\(results[0].outcome)")
    }
}
