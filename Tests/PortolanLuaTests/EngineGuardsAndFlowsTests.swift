import Portolan
import PortolanLua
import Testing
import TestSupport

/// Issue 35, §1, through a host: a Lua guard is the engine's per-node decision, so its failure names
/// its node; Lua flows and Swift flows are asked in one order, the script's first; a reload swaps the
/// script's flows and keeps the Swift ones.
@Suite struct EngineGuardsAndFlowsTests {
    static let app = """
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "admin", guard = function(node, request)
              if mode == "raise" then error("no session store") end
              if mode == "number" then return 7 end
            end },
          { id = "shelf" },
        } }
        portolan.flow { name = "script", steps = { home_wanted = function() return { "root", "home" } end } }
        """

    @Test func aLuaGuardsFailureNamesItsNodeAndTheLine() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        try await host.run("mode = 'raise'", chunkName: "set.lua")
        let raised = await host.route(.path([Entry("root"), Entry("admin")]))
        #expect(raised.failure?.kind == .handlerFailed)
        #expect(raised.failure?.message == "the guard of 'admin' failed: app.lua:4: no session store", "\(String(describing: raised.failure))")
        try await host.run("mode = 'number'", chunkName: "set.lua")
        let wrong = await host.route(.path([Entry("root"), Entry("admin")]))
        #expect(wrong.failure?.message.hasPrefix("the guard of 'admin' failed: it returned a number; expected nothing, false") == true,
                "\(String(describing: wrong.failure))")
        #expect(await host.router?.history.count == 2)
    }

    struct AdminScreen: Enterable {
        func enter(_ entry: Entry, info: InstructionInfo) async throws {}
    }

    struct AdminWall: Guarded {
        func guardRoute(_ request: RouteRequest) async throws -> InterceptionDecision { .deny("Swift says no") }
    }

    /// A Swift screen takes its node's place but not the script's guard; a `Guarded` object's own guard does.
    @Test func aSwiftNodeKeepsTheScriptsGuardUnlessItGuardsItself() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        try await host.run("mode = 'raise'", chunkName: "set.lua")
        await host.bind(AdminScreen(), to: "admin")
        let raised = await host.route(.path([Entry("root"), Entry("admin")]))
        #expect(raised.failure?.message.hasPrefix("the guard of 'admin' failed") == true, "\(String(describing: raised.failure))")
        _ = try await host.reload(.source(Self.app, chunkName: "app.lua"))
        #expect(await host.route(.path([Entry("root"), Entry("admin")])).failure?.kind == .handlerFailed)
        await host.bind(AdminWall(), to: "admin")
        let denied = await host.route(.path([Entry("root"), Entry("admin")]))
        #expect(denied.failure?.kind == .denied)
        #expect(denied.failure?.message == "Swift says no")
    }

    @Test func scriptFlowsComeFirstAndAReloadKeepsTheSwiftOnes() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        await host.addFlow(Flow(name: "swift", steps: ["home_wanted", "shelf_wanted"]) { step in
            switch step.name {
            case "home_wanted": .destination(.path([Entry("root"), Entry("admin")]))   // the script's flow answers first
            case "shelf_wanted": .url("/nowhere")
            default: nil
            }
        })
        #expect(await host.flowLines == ["flow script: home_wanted", "flow swift: home_wanted, shelf_wanted"])
        let home = await host.step(RouteStep("home_wanted"))
        #expect(home.success != nil, "\(String(describing: home.failure))")
        #expect(await host.router?.activePath.map(\.id) == ["root", "home"])
        // A URL a flow names is resolved as a route to it: one that leads nowhere is refused.
        let nowhere = await host.step(RouteStep("shelf_wanted"))
        #expect(nowhere.failure?.kind == .unreachable)
        #expect(nowhere.failure?.url == "/nowhere")

        _ = try await host.reload(.source(Self.app.replacingOccurrences(of: "home_wanted", with: "start_wanted"), chunkName: "app.lua"))
        #expect(await host.flowLines == ["flow script: start_wanted", "flow swift: home_wanted, shelf_wanted"])
        #expect(await host.step(RouteStep("home_wanted")).success != nil)
        #expect(await host.router?.activePath.map(\.id) == ["root", "admin"])
    }
}
