import Portolan
import PortolanLua
import Testing
import TestSupport

/// The threads the host drives, as scripts see them (issue 34): a script's main flow and a handler
/// are, to the script, Lua's main thread. While the host holds one suspended in a request (a route,
/// a wait), it is `normal`, as a Lua thread in the middle of a call is: no script may resume or
/// close it. Before, any code that kept `coroutine.running()` (an app helper such as `login()`)
/// could resume the scenario's flow from a handler, decide what `portolan.route` returned, and run
/// the scenario to its end inside the handler. Each message is liblua5.4.4's own, as `lua5.4`
/// prints it.
@Suite struct HostThreadGuardTests {
    /// An app whose payment always fails, and a helper that keeps the caller's coroutine.
    static let app = """
        helper = {}
        function helper.login() helper.flow = coroutine.running() end
        seen = {}
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "pay", enter = function()
              seen.status = coroutine.status(helper.flow)
              seen.resume = table.pack(coroutine.resume(helper.flow, true))
              seen.close = table.pack(pcall(coroutine.close, helper.flow))
              seen.closedAtLine = select(2, pcall(function() coroutine.close(helper.flow) end))
              seen.yieldable = coroutine.isyieldable()
              seen.yield = table.pack(pcall(coroutine.yield))
              error("payment failed")
            end },
          { id = "slow", enter = function()
              helper.waiting = coroutine.running()
              portolan.wait(3600)
            end },
        } }
        """

    @Test func aHandlerCannotResumeTheFlowThatRoutedNorForgeWhatTheRouteReturns() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            helper.login()
            local ok, err = portolan.route { "root", "pay" }
            return ok, err.kind, seen.status, seen.resume[1], seen.resume[2], seen.close[2], seen.closedAtLine
            """, chunkName: "s.lua")
        #expect(shown.count == 7)
        #expect(shown == [
            "nil", #""handler_failed""#, #""normal""#, "false", #""cannot resume non-suspended coroutine""#,
            #""cannot close a normal coroutine""#, #""app.lua:10: cannot close a normal coroutine""#,
        ])
        #expect(await host.router?.activePath == ["root"], "the failed route is undone: nothing ran to the end inside the handler")
    }

    @Test func aScriptsTopLevelAndAHandlerAreLuasMainThread() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            helper.login()
            portolan.route { "root", "pay" }
            local inside = coroutine.wrap(function() return coroutine.isyieldable(), coroutine.yield(1) end)
            inside()
            return coroutine.isyieldable(), select(2, pcall(coroutine.yield, 1)), seen.yieldable, seen.yield[2],
              coroutine.isyieldable(helper.flow), select(2, inside(2))
            """, chunkName: "s.lua")
        #expect(shown == [
            "false", #""attempt to yield from outside a coroutine""#, "false", #""attempt to yield from outside a coroutine""#,
            "false", "2",
        ])
        // A stray yield at a main flow's top level fails the script, as in Lua, instead of returning.
        let error = await #expect(throws: HostError.self) { try await host.run("coroutine.yield()", chunkName: "s.lua") }
        #expect(error?.message == "attempt to yield from outside a coroutine")
    }

    @Test func aHandlerCutWhileItWaitedCannotBeResumedAfterItsRouteFailed() async throws {
        // One limit only: the handler waits an hour, far past its 100 ms time limit.
        let host = try await PortolanHost.quiet(loading: Self.app, configuration: HostConfiguration(handlerTimeout: .milliseconds(100)))
        let failure = await host.route(.path(["root", "slow"])).failure
        #expect(failure?.kind == .timeout)
        let shown = try await host.run("""
            local ok, message = coroutine.resume(helper.waiting)
            return coroutine.status(helper.waiting), ok, message, select(2, pcall(coroutine.close, helper.waiting))
            """, chunkName: "s.lua")
        #expect(shown == [#""normal""#, "false", #""cannot resume non-suspended coroutine""#, #""cannot close a normal coroutine""#])
        #expect(await host.route(.path(["root", "home"])).failure == nil, "the host lives on")
    }

    /// Coroutines a script makes are Lua's, messages and all (`lua5.4` 5.4.4 prints the same).
    @Test func aScriptsOwnCoroutinesBehaveAsInLua() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            local co = coroutine.create(function() return select(2, pcall(coroutine.close, coroutine.running())) end)
            local c2 = coroutine.create(function() coroutine.yield() end)
            coroutine.resume(c2)
            return select(2, coroutine.resume(co)), select(2, pcall(function() coroutine.resume(5) end)),
              select(2, pcall(function() coroutine.status({}) end)), coroutine.status(c2), coroutine.close(c2), coroutine.status(c2)
            """, chunkName: "s.lua")
        #expect(shown == [
            #""cannot close a running coroutine""#, #""s.lua:4: bad argument #1 to 'resume' (thread expected, got number)""#,
            #""s.lua:5: bad argument #1 to 'status' (thread expected, got table)""#, #""suspended""#, "true", #""dead""#,
        ])
    }
}
