import Portolan
import PortolanLua
import Testing
import TestSupport

/// The Lua threads handlers run on (`HandlerThreads`): one per level of nesting, started afresh
/// for each handler once its last one returned. A handler can get hold of its thread
/// (`coroutine.running()`), but a script cannot run anything on it; a thread whose handler failed
/// or stopped is not used again.
@Suite struct HandlerThreadTests {
    static let app = """
        threads, log = {}, {}
        local function enter(node)
          threads[#threads + 1] = coroutine.running()
          log[#log + 1] = "enter " .. node.id
          if node.id == "boom" then error("boom") end
        end
        portolan.app { id = "root", children = {
          { id = "a", enter = enter }, { id = "b", enter = enter }, { id = "boom", enter = enter },
        } }
        """

    @Test func consecutiveHandlersShareOneThread() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a" })
            assert(portolan.route { "root", "b" })
            assert(#threads == 2)
            return threads[1] == threads[2], coroutine.status(threads[1])
            """, chunkName: "s.lua")
        #expect(shown == ["true", #""dead""#])
    }

    @Test func aScriptCannotRunCodeOnAHandlersThread() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a" })
            assert(#threads == 1)
            -- A finished thread has no function to resume: Lua takes what the script passes for
            -- arguments, and refuses.
            local ok, message = coroutine.resume(threads[1], function() coroutine.yield("halfway") end)
            assert(portolan.route { "root", "b" })
            assert(#threads == 2)
            return ok, message, threads[1] == threads[2], log[#log]
            """, chunkName: "s.lua")
        #expect(shown == ["false", #""cannot resume dead coroutine""#, "true", #""enter b""#])
    }

    @Test func aFailedHandlersThreadIsReplacedAndTheNextRouteWorks() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let failure = await host.route(.path(["root", "boom"])).failure
        #expect(failure?.kind == .handlerFailed)
        #expect(failure?.message.contains("boom") == true, "\(failure?.message ?? "")")
        let shown = try await host.run("""
            assert(portolan.route { "root", "a" })
            assert(#threads == 2)
            return threads[1] ~= threads[2], coroutine.status(threads[1]), log[#log]
            """, chunkName: "s.lua")
        #expect(shown == ["true", #""dead""#, #""enter a""#])
    }
}
