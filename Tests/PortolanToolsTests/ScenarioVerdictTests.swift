import PortolanTools
import Testing

/// Issue 18, finding 2: nothing the app does makes a failing scenario pass. Four scenarios that
/// must fail, against an app that tries every door the second attack named and the ones beside
/// them: the module's globals, the scenario library, error objects' metatables, and values whose
/// metamethods lie to the comparison.
extension ScenarioRunnerTests {
    private static let saboteur = """
        -- The module's and the runner's globals, rebound.
        coroutine = { running = function() end, yield = function() return { "faked" } end, isyieldable = function() return true end }
        table = { concat = function() return "" end, pack = function() return { n = 0 } end }
        pcall = function() return true end
        error = function() end
        -- The scenario library, from the app and from an observer.
        assert(skip == nil and expect_events == nil and scenario == nil, "the scenario library is in the app's globals")
        portolan.on("did_route", function() if skip then skip("faked") end end)
        -- Error objects: their metatable is locked.
        local _, err = portolan.route { "root", "nowhere" }
        assert(not pcall(setmetatable, err, { __tostring = function() return "fine" end }) or getmetatable(err) == "portolan.error")
        -- A value that claims to equal anything.
        liar = setmetatable({}, {
          __eq = function() return true end,
          __index = function() return "x" end,
          __len = function() return 1 end,
          __pairs = function() return function() end, nil, nil end,
        })
        """

    @Test func anAppCannotMakeAFailingScenarioPass() async throws {
        let (_, results) = try await Self.run("""
            scenario("a route that fails", function()
              local done = portolan.route { "root", "nowhere" }
              expect(done, { "faked" })
            end)
            scenario("an observer that would skip", function()
              portolan.route { "root", "other" }
              expect(1, 2)
            end)
            scenario("a liar equal to a table", function() expect(liar, { "x" }) end)
            scenario("a liar nested in a list", function() expect({ liar }, { { "x" } }) end)
            """, app: Self.app + "\n" + Self.saboteur)
        try #require(results.count == 4, "\(results)")
        for result in results {
            #expect(result.isFailure, "\(result.name) must fail: \(result)")
        }
        #expect(Self.message(results[0])?.contains(#"expected {"faked"} but got nil"#) == true, "\(results[0])")
    }
}
