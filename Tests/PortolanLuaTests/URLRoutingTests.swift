import Portolan
import PortolanLua
import Testing
import TestSupport

/// Deep links from Lua: `route` fields, portolan.match, portolan.route(url), redirect rules.
@Suite struct URLRoutingTests {
    static let app = """
        seen = {}
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", route = "/", children = {
                { id = "movie", route = { "/movies/:id<int>", "myapp://film/:id<int>" },
                  enter = function(node, entry, info)
                    seen[#seen + 1] = "movie " .. entry.context.id .. " ref=" .. tostring(info.query and info.query.ref)
                      .. " #" .. tostring(info.fragment)
                  end,
                  children = { { id = "cast", route = "/movies/:movie<int>/cast/:id<int>" } } },
              } },
            { id = "tabs", kind = "switch", children = { { id = "wishlist", route = "/wishlist" } } },
          },
          anywhere = { { id = "settings", route = "/settings" } },
        }
        """

    private func host() async throws -> PortolanHost {
        try await .quiet(loading: Self.app)
    }

    private func run(_ host: PortolanHost, _ source: String) async throws -> [String] {
        try await host.run(source, chunkName: "deeplink.lua")
    }

    @Test func matchDescribesWhereAURLLeads() async throws {
        let host = try await host()
        let result = try await run(host, """
            local m = assert(portolan.match("/movies/42/cast/7?ref=push&ref=mail&debug#bio"))
            return m.node, table.concat(m.path, ">"), m.params.movie, m.params.id, math.type(m.params.id),
              m.query.ref, m.query.debug, #m.query_items, m.query_items[2].value, m.fragment
            """)
        #expect(result == [
            #""cast""#, #""root>home>movie>cast""#, "42", "7", #""integer""#, #""push""#, "true", "3", #""mail""#, #""bio""#,
        ])
    }

    @Test func routeByURLEntersWithTypedContextAndHandsOnQueryAndFragment() async throws {
        let host = try await host()
        let result = try await run(host, """
            local done = assert(portolan.route("myapp://film/9?ref=home#top"))
            return table.concat(done, ";"), seen[1]
            """)
        #expect(result == [#""enter movie {id=9}""#, #""movie 9 ref=home #top""#])
    }

    @Test func ancestorsTakeTheirContextFromTheirOwnPattern() async throws {
        let host = try await host()
        let result = try await run(host, #"return table.concat(assert(portolan.route "/movies/3/cast/8"), ";")"#)
        #expect(result == [#""enter movie {id=3};enter cast {id=8,movie=3}""#])
    }

    @Test func badURLsFailWithoutTouchingTheTree() async throws {
        let host = try await host()
        let result = try await run(host, """
            local kinds = {}
            for _, url in ipairs { "/movies/%zz", "/nowhere", "/movies/abc", "myapp://nowhere", "/a\\1b" } do
              local _, err = portolan.route(url)
              kinds[#kinds + 1] = err.kind
            end
            local _, matchErr = portolan.match("?")
            return table.concat(kinds, ","), matchErr.kind, table.concat(portolan.active_path(), ">")
            """)
        #expect(result == [#""invalid,unreachable,unreachable,unreachable,invalid""#, #""invalid""#, #""root>home""#])
    }

    @Test func redirectRulesRewriteBeforeMatching() async throws {
        let host = try await host()
        let result = try await run(host, """
            portolan.redirect_rule("/old/:n", "/movies/:n")
            portolan.redirect_rule(function(url) if url == "/fav" then return "/wishlist" end end)
            local a = assert(portolan.route "/old/5")
            local b = assert(portolan.route "/fav")
            local ok, why = pcall(portolan.redirect_rule, "/bad/:x<float>", "/y")
            return table.concat(a, ";"), table.concat(b, ";"), ok, why:match("invalid") ~= nil
            """)
        #expect(result == [#""enter movie {id=5}""#, #""leave movie {id=5};switch root -> tabs""#, "false", "true"])
    }

    /// Issue 10, item 7: a rule that returns a table used to make every URL route raise.
    @Test func aRedirectRuleThatReturnsATableFailsThatRouteWithNilAndAnError() async throws {
        let host = try await host()
        let result = try await run(host, """
            portolan.redirect_rule(function(url) if url == "/odd" then return {} end end)
            local routed, route_err = portolan.route("/odd")
            local matched, match_err = portolan.match("/odd")
            local planned, plan_err = portolan.plan("/odd")
            local ok = portolan.route("/wishlist") ~= nil
            return routed, route_err.kind, match_err.kind, plan_err.kind, matched == nil and planned == nil, ok,
              tostring(route_err):find("returned a table", 1, true) ~= nil
            """)
        #expect(result == ["nil", #""invalid""#, #""invalid""#, #""invalid""#, "true", "true", "true"])
    }

    @Test func interceptorsSeeTheURL() async throws {
        let host = try await host()
        let result = try await run(host, """
            portolan.intercept(function(request)
              if request.query and request.query.token == nil then return portolan.deny("no token in " .. request.url) end
            end)
            local _, err = portolan.route "/wishlist"
            local done = portolan.route "/wishlist?token=1"
            return err.message, #done
            """)
        #expect(result == [#""no token in /wishlist""#, "1"])
    }

    @Test func anAnywhereNodeByURLAndPlanByURL() async throws {
        let host = try await host()
        let result = try await run(host, """
            local planned = assert(portolan.plan "/settings")
            local done = assert(portolan.route "/settings")
            return table.concat(planned, ";"), table.concat(done, ";")
            """)
        #expect(result == [#""enter settings""#, #""enter settings""#])
    }

    @Test func ambiguousRoutesFailTheAppLoadNamingBoth() async throws {
        let host = try PortolanHost()
        do {
            try await host.loadApp(.source("""
                portolan.app { id = "root", children = {
                  { id = "a", route = "/books/:id" },
                  { id = "b", route = "/books/:slug" },
                } }
                """, chunkName: "dupes.lua"))
            Issue.record("ambiguous routes must be refused")
        } catch {
            #expect(error.message.hasPrefix("dupes.lua:1:"))
            #expect(error.message.contains("of 'a'") && error.message.contains("of 'b'"))
        }
    }

    /// Issue 10, item 8: a pattern without a scheme or host matched every URL's path, so
    /// `https://evil.example/products/2` routed into the app. The root may now list its origins.
    @Test func anAppThatListsItsOriginsRefusesURLsFromOthers() async throws {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source("""
            portolan.app { id = "root", schemes = { "shop" }, hosts = { "Shop.Example" }, children = {
              { id = "product", route = "/products/:id<int>" },
            } }
            """, chunkName: "shop.lua"))
        let result = try await run(host, """
            local function kind(url)
              local done, err = portolan.route(url)
              return done and "ok" or err.kind
            end
            local _, why = portolan.match("https://evil.example/products/2")
            return kind("/products/1"), kind("shop://products/2"), kind("https://shop.example/products/3"),
              kind("http://SHOP.example/products/4"), kind("https://evil.example/products/5"),
              kind("evil://products/6"), kind("ftp://shop.example/products/7"), tostring(why)
            """)
        #expect(result == [
            #""ok""#, #""ok""#, #""ok""#, #""ok""#, #""unreachable""#, #""unreachable""#, #""unreachable""#,
            #""unreachable: 'https://evil.example/products/2' comes from outside the app, which accepts shop://, https://shop.example""#,
        ])
    }

    /// Issue 25: `schemes = { "shop", "https" }` beside `hosts` accepted https links from every host.
    /// With `hosts` given, they bound the web schemes; without it, a listed web scheme admits all.
    @Test func hostsBoundTheWebSchemesEvenWhenSchemesListThem() async throws {
        let route = """
            local function kind(url)
              local done, err = portolan.route(url)
              return done and "ok" or err.kind
            end
            local _, why = portolan.match("https://evil.example/products/2")
            return kind("https://evil.example/products/1"), kind("http://evil.example/products/2"),
              kind("https://shop.example/products/3"), kind("shop://products/4"), tostring(why)
            """
        let bounded = try PortolanHost()
        await bounded.setOutput { _ in }
        try await bounded.loadApp(.source("""
            portolan.app { id = "root", schemes = { "shop", "https", "HTTP" }, hosts = { "shop.example" }, children = {
              { id = "product", route = "/products/:id<int>" } } }
            """, chunkName: "shop.lua"))
        #expect(try await run(bounded, route) == [
            #""unreachable""#, #""unreachable""#, #""ok""#, #""ok""#,
            #""unreachable: 'https://evil.example/products/2' comes from outside the app, which accepts shop://, https://shop.example""#,
        ])
        let open = try PortolanHost()
        await open.setOutput { _ in }
        try await open.loadApp(.source("""
            portolan.app { id = "root", schemes = { "shop", "https" }, children = {
              { id = "product", route = "/products/:id<int>" } } }
            """, chunkName: "shop.lua"))
        #expect(try await run(open, route).prefix(4) == [#""ok""#, #""unreachable""#, #""ok""#, #""ok""#])
    }

    @Test func withoutListsEveryOriginIsAcceptedAndBadListsAreRefused() async throws {
        let open = try await host()
        #expect(try await run(open, #"return #assert(portolan.route "https://anywhere.example/movies/2")"#) == ["1"])
        for (field, message) in [
            ("schemes = \"shop\"", "schemes must be a list such as"),
            ("schemes = { \"shop://\" }", "schemes[1] must be like \"shop\""),
            ("hosts = { 42 }", "hosts[1] must be like \"shop.example\""),
        ] {
            let host = try PortolanHost()
            await #expect(throws: HostError.self) {
                try await host.loadApp(.source("portolan.app { id = 'root', \(field) }", chunkName: "bad.lua"))
            }
            do {
                try await host.loadApp(.source("portolan.app { id = 'root', \(field) }", chunkName: "bad.lua"))
            } catch {
                #expect(error.message.hasPrefix("bad.lua:1: ") && error.message.contains(message), "\(error.message)")
            }
        }
    }

    /// `portolan.redirect("/login")` from a guard or interceptor routes to where the URL leads, as
    /// docs/rules.md says of `portolan.redirect(dest)`, rather than failing as an unknown anywhere
    /// node '/login'.
    @Test func aGuardRedirectsToAURL() async throws {
        let host = try PortolanHost()
        try await host.loadApp(.source("""
            portolan.app { id = "root", children = {
              { id = "login", route = "/login" },
              { id = "movie", route = "/movies/:id<int>",
                guard = function(_, request) if not logged_in then return portolan.redirect("/login?next=movie") end end },
              { id = "old", route = "/old", guard = function() return portolan.redirect("/movies/7") end },
              { id = "lost", route = "/lost", guard = function() return portolan.redirect("/nowhere") end } } }
            """, chunkName: "@app.lua"))
        #expect(try await host.route(url: "/movies/3").get().map(\.description) == ["enter login"])
        #expect(await host.router?.activePath.map(\.description) == ["root", "login"])
        _ = try await host.run("logged_in = true", chunkName: "=login")
        #expect(try await host.route(url: "/old").get().map(\.description) == ["leave login", "enter movie {id=7}"])
        guard case .failure(let failure) = await host.route(url: "/lost") else {
            Issue.record("a redirect to a URL no route matches succeeded")
            return
        }
        #expect(failure.message.contains("a redirect names an invalid destination: no route matches '/nowhere'"), "\(failure.message)")
    }
}
