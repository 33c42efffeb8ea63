import PortolanTools
import Testing

/// `portolan.state` in scenarios: each scenario runs in a fresh host, so what one scenario puts in
/// the app's state never reaches the next, whatever the order or the jobs.
@Suite struct ScenarioStateTests {
    static let app = """
        local state = portolan.initial_state { logged_in = false, visits = 0 }
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home" },
            { id = "account", guard = function()
                if not state.logged_in then return portolan.redirect { "root", "home" } end
              end },
          },
        }
        portolan.on("did_route", function() state.visits = state.visits + 1 end)
        """

    @Test func eachScenarioStartsFromTheAppsInitialState() async throws {
        let (_, results) = try await ScenarioRunnerTests.run("""
            scenario("logs in", function()
              portolan.state.logged_in = true
              portolan.route { "root", "account" }
              expect(portolan.active_path(), { "root", "account" })
              expect(portolan.state.visits, 1)
            end)
            scenario("starts logged out", function()
              expect(portolan.state, { logged_in = false, visits = 0 })
              portolan.route { "root", "account" }
              expect(portolan.active_path(), { "root", "home" })
            end)
            """, app: Self.app)
        #expect(results.count == 2)
        #expect(results.allSatisfy { !$0.isFailure }, "\(results.map(ScenarioRunnerTests.message))")
    }
}
