import Portolan
import PortolanLua
import Testing
import TestSupport

/// Issue 18, finding 4: a handler's time limit holds while it runs, not only while it waits. With a
/// budget no handler reaches, only the count hook's check of the deadline can stop these. The
/// assertions are on how the route fails, never on how long it took: on a busy machine the limit
/// is reached later, and the route fails the same way.
@Suite struct HandlerTimeLimitTests {
    private static let app = """
        portolan.app { id = "root", children = {
          { id = "a" },
          { id = "spins", enter = function() while true do end end },
          { id = "swallows", enter = function() while true do pcall(function() while true do end end) end end },
          { id = "scans", enter = function() local s = ("a"):rep(1 << 20) while true do utf8.len(s) end end },
          { id = "allocates", enter = function() while true do local s = ("x"):rep(1 << 22) end end },
          { id = "sorts", enter = function()
              local t = {} for i = 1, 2e5 do t[i] = (i * 7919) % 2e5 end
              while true do table.sort(t) end
            end },
        } }
        """

    private static func host() async throws -> PortolanHost {
        try await .quiet(loading: app, configuration: HostConfiguration(
            handlerTimeout: .milliseconds(300), handlerInstructionBudget: Int.max / 2))
    }

    /// The limit may pass inside an allocation (a busy machine can starve the handler until its
    /// first `rep` is past the deadline): the message names the line there too.
    @Test(arguments: ["spins", "swallows", "scans", "sorts", "allocates"])
    func aBusyHandlerFailsAsATimeoutAtItsLine(_ node: String) async throws {
        let host = try await Self.host()
        let result = await host.route(.ids("root", node))
        guard case .failure(let failure) = result else {
            Issue.record("\(node): the route should have failed, got \(result)")
            return
        }
        #expect(failure.kind == .timeout, "\(node): \(failure)")
        #expect(failure.message.contains("time limit exceeded"), "\(node): \(failure)")
        #expect(failure.message.contains("app.lua:"), "\(node): names the handler's line: \(failure)")
        // The host, its tree and its Lua state live on; the next handler has a time limit of its own.
        #expect((try? await host.route(.ids("root", "a")).get()) != nil)
    }

    /// A script's main flow has no handler time limit: the deadline is the handler's only, and
    /// does not outlive it.
    @Test func theDeadlineEndsWithTheHandler() async throws {
        let host = try await Self.host()
        _ = await host.route(.ids("root", "spins"))
        let result = try await host.run("""
            local n = 0
            for i = 1, 3e6 do n = n + i end
            return n
            """, chunkName: "script.lua")
        #expect(result == ["4500001500000"])
    }

    /// Issue 19: one default time limit (it was 5 s for a host, 30 s for a bare router, 2 s for a
    /// command that only loads an app), and a router always has one.
    @Test func aHostAndABareRouterHaveTheSameDefaultLimit() async throws {
        #expect(RouterConfiguration.defaultHandlerTimeout == .seconds(5))
        #expect(RouterConfiguration().handlerTimeout == RouterConfiguration.defaultHandlerTimeout)
        #expect(HostConfiguration().handlerTimeout == RouterConfiguration.defaultHandlerTimeout)
        let host = try PortolanHost()
        try await host.loadApp(.source(#"portolan.app { id = "root" }"#, chunkName: "app.lua"))
        #expect(await host.router?.configuration.handlerTimeout == RouterConfiguration.defaultHandlerTimeout)
    }

    /// Issue 25: the root's `handler_timeout` replaces the host's limit for Lua handlers too, and a
    /// reload that fails keeps the rules' limit with their router.
    @Test func theAppsHandlerTimeoutReplacesTheHostsAndOutlivesAFailedReload() async throws {
        let app = Self.app.replacingOccurrences(of: #"{ id = "root","#, with: #"{ id = "root", handler_timeout = 0.2,"#)
        let host = try await PortolanHost.quiet(loading: app, configuration: HostConfiguration(
            handlerTimeout: .seconds(600), handlerInstructionBudget: Int.max / 2))
        #expect(await host.router?.configuration.handlerTimeout == .milliseconds(200))
        await #expect(throws: HostError.self) {
            try await host.reload(.source(#"portolan.app { id = "root", handler_timeout = "soon" }"#, chunkName: "app.lua"))
        }
        let result = await host.route(.ids("root", "spins"))
        guard case .failure(let failure) = result else {
            Issue.record("the route should have failed at the app's limit, got \(result)")
            return
        }
        #expect(failure.kind == .timeout)
        #expect(failure.message.contains("0.2 seconds"), "\(failure)")
    }
}
