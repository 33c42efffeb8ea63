import Portolan
import PortolanLua
import Testing
import TestSupport

/// Issue 20, §3: every request that fails, at any stage, emits `failed` with its kind and enters
/// the history. Before, a URL that matched nothing, came from a foreign origin or was malformed,
/// a request dropped as `duplicated`, and a value that named no destination failed silently: no
/// `failed` observer heard them, and `portolan.history()` did not list them.
@Suite struct RefusedRequestTests {
    static let app = """
        heard = {}
        portolan.on("failed", function(err, destination)
          heard[#heard + 1] = err.kind .. " " .. err.stage .. " " .. tostring(err.url) .. " #" .. #destination
        end)
        portolan.app {
          id = "root", hosts = { "shop.example" }, children = {
            { id = "home", route = "/home" },
            { id = "product", route = "/products/:id<int>",
              enter = function()
                -- Asked twice while this route runs: the second is the same as the first, queued last.
                assert(portolan.route { "root", "home" })
                local _, err = portolan.route { "root", "home" }
                dropped = err and err.kind
              end },
          },
        }
        """

    private func host() async throws -> PortolanHost {
        try await .quiet(loading: Self.app)
    }

    private func run(_ host: PortolanHost, _ source: String) async throws -> [String] {
        try await host.run(source, chunkName: "refused.lua")
    }

    @Test func aURLThatLeadsNowhereIsHeardAndKept() async throws {
        let host = try await host()
        let result = try await run(host, """
            local kinds = {}
            for _, url in ipairs { "/nowhere", "https://evil.example/home", "/products/%zz" } do
              local done, err = portolan.route(url)
              kinds[#kinds + 1] = done and "ok" or err.kind .. "@" .. err.stage
            end
            local history = portolan.history()
            local last = history[#history]
            return table.concat(kinds, ","), table.concat(heard, ";"), #history, last.ok, last.error.url, #last.requested
            """)
        #expect(result == [
            #""unreachable@request,unreachable@request,invalid@request""#,
            #""unreachable request /nowhere #0;unreachable request https://evil.example/home #0;invalid request /products/%zz #0""#,
            "3", "false", #""/products/%zz""#, "0",
        ])
    }

    @Test func aDuplicateDroppedWhileARouteRunsIsHeard() async throws {
        let host = try await host()
        let result = try await run(host, """
            assert(portolan.route "/products/1")
            local kinds = {}
            for _, record in ipairs(portolan.history()) do kinds[#kinds + 1] = record.ok and "ok" or record.error.kind end
            return dropped, table.concat(heard, ";"), table.concat(kinds, ",")
            """)
        // The duplicate is told of when it is asked for, inside the running route, before the
        // route that asked for it finishes.
        #expect(result == [#""duplicated""#, #""duplicated request nil #2""#, #""duplicated,ok,ok""#])
    }

    @Test func aValueThatNamesNoDestinationIsHeard() async throws {
        let host = try await host()
        let result = try await run(host, """
            local _, err = portolan.route(42)
            local _, tab = portolan.switch_to("root", "nowhere")
            return err.kind, err.stage, tab.kind, table.concat(heard, ";"), #portolan.history()
            """)
        #expect(result.count == 5)
        #expect(result.prefix(3) == [#""invalid""#, #""request""#, #""unreachable""#])
        #expect(result[3].hasPrefix(#""invalid request nil #0;"#), "\(result)")
        #expect(result[4] == "2")
    }

    @Test func aRouteToAURLFromSwiftIsHeardToo() async throws {
        let host = try await host()
        let events = Locked<[String]>([])
        await host.observeEvents { event in events.withLock { $0.append(event.description) } }
        let result = await host.route(url: "/nowhere")
        #expect(result.failure?.kind == .unreachable)
        #expect(result.failure?.url == "/nowhere")
        #expect(events.value == ["failed unreachable /nowhere"])
        let history = await host.router?.history ?? []
        try #require(history.count == 1)
        #expect(history[0].failure?.stage == .request)
    }
}
