import Portolan
import PortolanLua
import Testing

/// Issue 35, part 4: a script's guards and interceptors redirect as the peers define it. Each
/// test runs the real module in a real host.
@Suite struct RedirectSettlingTests {
    private static let app = """
        logged_in, seen, decided = false, {}, {}
        local function record(node, context, info)
          local query = info.query and info.query.from or "-"
          seen[#seen + 1] = node.id .. " url=" .. tostring(info.url) .. " from=" .. query .. " #" .. tostring(info.fragment)
        end
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "login", route = "/login", enter = record },
          { id = "protected", route = "/protected",
            guard = function(node, request)
              if not logged_in then return portolan.redirect("/login?from=%2Fprotected#form", { resume = true }) end
            end },
          { id = "account", route = "/account",
            guard = function(node, request)
              if not logged_in then return portolan.redirect { "root", "account" } end
            end },
        } }
        local function top(path) return path[#path].id end
        portolan.intercept(function(request)
          decided[#decided + 1] = top(request.destination) .. " from "
            .. (request.redirected_from and top(request.redirected_from) or "-")
        end)
        """

    private func host() async throws -> PortolanHost {
        try await .quiet(loading: Self.app)
    }

    /// The issue's case: before, the login screen saw `info.query == nil` and `info.url == nil`.
    @Test func aGuardsRedirectToAURLReachesItsScreenWithTheQuery() async throws {
        let host = try await host()
        #expect(try await host.run(#"return portolan.route("/protected")[1]"#, chunkName: "s.lua") == [#""enter login""#])
        // `resume = true` keeps the guarded destination, and resuming goes there.
        #expect(await host.pendingDestination == .ids("root", "protected"))
        _ = try await host.run("logged_in = true", chunkName: "s.lua")
        #expect((try await host.resume()?.get())?.map(\.description) == ["leave login", "enter protected"])
        // A route to the same URL gives the screen the same `info`.
        let shown = try await host.run("""
            portolan.route "/login?from=%2Fprotected#form"
            return seen[1], seen[2]
            """, chunkName: "s.lua")
        #expect(shown == [#""login url=/login?from=%2Fprotected#form from=/protected #form""#,
                          #""login url=/login?from=%2Fprotected#form from=/protected #form""#])
    }

    /// Before, a guard that redirected into its own node looped until `max_redirects`.
    @Test func aGuardsRedirectToWhereTheRouteGoesLetsItThrough() async throws {
        let host = try await host()
        let shown = try await host.run("""
            local done, err = portolan.route { "root", "account" }
            return done and done[1] or tostring(err), #portolan.history(), table.concat(decided, "; ")
            """, chunkName: "s.lua")
        #expect(shown == [#""enter account""#, "1", #""account from -""#])
    }

    /// A check meant once per navigation reads `request.redirected_from`: the destination first
    /// asked for, on every hop after the first; a plan sees the same.
    @Test func eachHopKnowsWhereTheNavigationStarted() async throws {
        let host = try await host()
        let shown = try await host.run("""
            portolan.plan "/protected"
            portolan.route "/protected"
            return table.concat(decided, "; ")
            """, chunkName: "s.lua")
        #expect(shown == [#""protected from -; login from protected; protected from -; login from protected""#])
    }

    @Test func aLoopAndAChainThatIsTooLongAreToldApart() async throws {
        let host = try await host()
        let shown = try await host.run("""
            portolan.intercept(function(request)
              local top = request.destination[#request.destination]
              if top.id == "home" then return portolan.redirect "/login" end
              if top.id == "login" and request.redirected_from then return portolan.redirect { "root", "home" } end
            end)
            local _, loop = portolan.route { "root", "home" }
            return loop.kind, loop.redirect_chain, loop.message
            """, chunkName: "s.lua")
        #expect(shown == [#""invalid""#, #""loop""#,
                          #""redirect loop: 'root > home' → 'root > login' (/login) → 'root > home'""#])
        let long = try await PortolanHost.quiet(loading: """
            portolan.app { id = "root", max_redirects = 2, children = { { id = "page", route = "/pages/:n<int>" } } }
            portolan.intercept(function(request)
              local n = request.destination[2].context.n
              if n then return portolan.redirect("/pages/" .. (n + 1)) end
            end)
            """)
        let shownLong = try await long.run("""
            local _, err = portolan.route "/pages/1"
            return err.redirect_chain, err.message
            """, chunkName: "s.lua")
        #expect(shownLong == [#""too_long""#,
                              #""too many redirects: more than 2: 'root > page {n=1}' (/pages/1) → 'root > page {n=2}' (/pages/2) → 'root > page {n=3}' (/pages/3) → 'root > page {n=4}' (/pages/4)""#])
    }
}
