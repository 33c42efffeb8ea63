import Portolan
import TestSupport
import PortolanLua
import Testing

@Suite struct HotReloadTests {
    static let version1 = """
        loaded = (loaded or 0) + 1
        portolan.intercept(function(request) if request:goes_to("secret") then return false end end)
        portolan.app { id = "root", children = {
          { id = "a", enter = function() entered = "a v1" end, children = { { id = "b", children = { { id = "c" } } } } },
          { id = "secret" },
        } }
        """

    static let version2 = """
        loaded = (loaded or 0) + 1
        portolan.app { id = "root", children = {
          { id = "a", enter = function() entered = "a v2" end, children = { { id = "b" } } },
          { id = "secret" },
        } }
        """

    private func host() async throws -> PortolanHost {
        try await .quiet(loading: Self.version1)
    }

    @Test func reloadKeepsTheTreeWhereItCanAndLeavesWhatIsGone() async throws {
        let host = try await host()
        _ = try await host.run(#"assert(portolan.route { "root", "a", "b", "c" })"#, chunkName: "s.lua")
        let reloaded = try await host.reload(source: Self.version2, chunkName: "app.lua")
        #expect(texts(reloaded.left) == ["leave c"])
        #expect(reloaded.refresh == .success([]))
        let result = try await host.run("""
            local path = table.concat(portolan.active_path(), ">")
            local secret = portolan.route { "root", "secret" }
            portolan.route { "root", "a" }
            return path, loaded, secret ~= nil
            """, chunkName: "s.lua")
        // The tree kept root > a > b; the v1 interceptor is gone with v1.
        #expect(result == [#""root>a>b""#, "2", "true"])
    }

    @Test func aFailedReloadKeepsThePreviousRules() async throws {
        let host = try await host()
        await #expect(throws: HostError.self) { try await host.reload(source: "portolan.app {", chunkName: "broken.lua") }
        do {
            _ = try await host.reload(source: "portolan.app { id = 'root', children = { { id = 'x', enter = 5 } } }", chunkName: "bad.lua")
            Issue.record("a bad graph must fail the reload")
        } catch {
            #expect(error.message.hasPrefix("reload failed; the previous rules stay: bad.lua:1:"))
        }
        let result = try await host.run("""
            local _, err = portolan.route { "root", "secret" }
            assert(portolan.route { "root", "a" })
            return err.kind, entered
            """, chunkName: "s.lua")
        #expect(result == [#""denied""#, #""a v1""#])
    }
}
