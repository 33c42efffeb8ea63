import Portolan
import PortolanLua
import Testing

/// Issue 19: one redirect loop for rules of both kinds, in declaration order, under one
/// `max_redirects`, and one URL pipeline that parses each URL once.
@Suite struct RedirectLoopTests {
    private func host(_ options: String = "", rules: String) async throws -> PortolanHost {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source("""
            portolan.app { id = "root", \(options) children = {
              { id = "movie", route = "/movies/:id<int>" },
              { id = "product", route = "/products/:id<int>" },
            } }
            \(rules)
            """, chunkName: "app.lua"))
        return host
    }

    private func routed(_ host: PortolanHost, _ url: String) async throws -> String {
        let result = try await host.run(#"local done, err = portolan.route("\#(url)") return done and table.concat(done, ";") or tostring(err)"#, chunkName: "try.lua")
        try #require(result.count == 1)
        return result[0]
    }

    /// Before, function rules ran in Lua with a limit of their own (8): `max_redirects` bound only
    /// pattern rules.
    @Test func maxRedirectsBoundsFunctionRules() async throws {
        let host = try await host("max_redirects = 2,", rules: """
            local next_of = { ["/a"] = "/b", ["/b"] = "/c", ["/c"] = "/movies/3", ["/x"] = "/y", ["/y"] = "/movies/4" }
            portolan.redirect_rule(function(url) return next_of[url] end)
            """)
        #expect(try await routed(host, "/x") == #""enter movie {id=4}""#)
        let tooLong = "too many redirect rule rewrites: more than 2: '/a' → '/b' → '/c' → '/movies/3'"
        #expect(try await routed(host, "/a") == "\"invalid: \(tooLong)\"")
        // From Swift too: the same chain.
        let failure = await host.resolve(url: "/a").failure
        #expect(failure?.message == tooLong)
        #expect(failure?.redirectChain == .tooLong)
    }

    /// Before, function rules ran first, to their end, then pattern rules: a function rule never
    /// saw what a pattern rule made.
    @Test func aFunctionRuleSeesAPatternRulesOutputAndTheOtherWayRound() async throws {
        let host = try await host(rules: """
            portolan.redirect_rule("/old/:n", "/mid/:n")
            portolan.redirect_rule(function(url)
              local n = url:match("^/mid/(%d+)$")
              if n then return "/movies/" .. n end
              if url == "/fav" then return "/legacy/9" end
            end)
            portolan.redirect_rule("/legacy/:n", "/products/:n")
            """)
        #expect(try await routed(host, "/old/5") == #""enter movie {id=5}""#)
        #expect(try await routed(host, "/fav") == #""leave movie {id=5};enter product {id=9}""#)
        #expect(try await host.resolve(url: "/old/6").get().url == "/movies/6")
    }

    /// Before, a chain of a pattern rule and a function rule stopped after the pattern rule (the
    /// function rules had run already) and failed as `unreachable`.
    @Test func aLoopOfMixedRulesFailsWithTheOneLoopMessage() async throws {
        let host = try await host(rules: """
            portolan.redirect_rule("/ping", "/pong")
            portolan.redirect_rule(function(url) if url == "/pong" then return "/ping" end end)
            """)
        #expect(try await routed(host, "/ping") == #""invalid: redirect rules loop: '/ping' → '/pong' → '/ping'""#)
        #expect(try await routed(host, "/pong") == #""invalid: redirect rules loop: '/pong' → '/ping' → '/pong'""#)
        #expect(await host.resolve(url: "/ping").failure?.redirectChain == .loop)
    }

    /// The first rule in declaration order that rewrites a URL wins, whatever its kind.
    @Test func theFirstDeclaredRuleWins() async throws {
        let host = try await host(rules: """
            portolan.redirect_rule(function(url) if url == "/go/1" then return "/products/1" end end)
            portolan.redirect_rule("/go/:n", "/movies/:n")
            portolan.redirect_rule("/go/2", "/products/2")
            """)
        #expect(try await routed(host, "/go/1") == #""enter product {id=1}""#)
        #expect(try await routed(host, "/go/2") == #""leave product {id=1};enter movie {id=2}""#)
    }

    /// The origin of a URL is checked as received, before any rule of either kind.
    @Test func theOriginIsCheckedBeforeAnyRule() async throws {
        let host = try await host(#"hosts = { "shop.example" },"#, rules: """
            portolan.redirect_rule(function(url) if url:find("evil", 1, true) then return "/products/1" end end)
            portolan.redirect_rule("https://evil.example/p/:n", "/products/:n")
            """)
        let refusal = #""unreachable: 'https://evil.example/p/2' comes from outside the app, which accepts https://shop.example""#
        #expect(try await routed(host, "https://evil.example/p/2") == refusal)
        #expect(await host.resolve(url: "https://evil.example/p/2").failure?.kind == .unreachable)
        #expect(try await routed(host, "https://shop.example/products/3") == #""enter product {id=3}""#)
    }

    /// The rules belong to the app: a reload replaces rules of both kinds, and a failed reload
    /// keeps those loaded before (the function rules used to be kept apart, in the module).
    @Test func aReloadReplacesRulesOfBothKindsAndAFailedOneKeepsThem() async throws {
        let app = """
            portolan.app { id = "root", children = { { id = "movie", route = "/movies/:id<int>" } } }
            portolan.redirect_rule("/%@/:n", "/movies/:n")
            portolan.redirect_rule(function(url) if url == "/%@" then return "/movies/1" end end)
            """
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source(app.replacingOccurrences(of: "%@", with: "old"), chunkName: "app.lua"))
        await #expect(throws: HostError.self) {
            try await host.reload(.source(app.replacingOccurrences(of: "%@", with: "new") + "\nerror('broken')", chunkName: "app.lua"))
        }
        #expect(try await host.resolve(url: "/old/2").get().url == "/movies/2")
        #expect(try await host.resolve(url: "/old").get().url == "/movies/1")
        _ = try await host.reload(.source(app.replacingOccurrences(of: "%@", with: "new"), chunkName: "app.lua"))
        #expect(try await host.resolve(url: "/new/3").get().url == "/movies/3")
        #expect(try await host.resolve(url: "/new").get().url == "/movies/1")
        #expect(await host.resolve(url: "/old/2").failure?.kind == .unreachable)
        #expect(await host.resolve(url: "/old").failure?.kind == .unreachable)
    }

    /// A rule written in Lua runs on its host's thread only: resolved through the router from
    /// another thread, the URL fails at once rather than entering Lua there (or skipping the rule).
    @Test func aLuaRuleRefusesToRunOffTheHostsThread() async throws {
        let host = try await host(rules: #"portolan.redirect_rule(function(url) if url == "/fav" then return "/movies/1" end end)"#)
        let router = try #require(await host.router)
        let failure = router.resolve(url: "/fav").failure
        #expect(failure?.kind == .invalid)
        #expect(failure?.message.contains("runs on its host's thread") == true)
        #expect(try await host.resolve(url: "/fav").get().node == "movie")
    }
}

/// Issue 19: a URL is parsed once per route, wherever it comes from.
@Suite(.serialized) struct URLParsedOnceTests {
    @Test(arguments: [
        ("", "/movies/7101", "/films/7101", "/movies/7101"),
        (#"hosts = { "shop.example" },"#, "https://shop.example/movies/7202", "https://shop.example/films/7202", "/movies/7202"),
    ])
    func aRoutedURLIsParsedOnce(options: String, url: String, old: String, rewritten: String) async throws {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source("""
            portolan.app { id = "root", \(options) children = { { id = "movie", route = "/movies/:id<int>" } } }
            portolan.redirect_rule("/films/:id", "/movies/:id")
            """, chunkName: "app.lua"))
        URLParseCounter.watch(url)
        _ = try await host.run(#"assert(portolan.route("\#(url)"))"#, chunkName: "route.lua")
        #expect(URLParseCounter.parses(of: url) == 1)
        // From Swift, the same.
        URLParseCounter.watch(url)
        _ = try await host.route(url: url).get()
        #expect(URLParseCounter.parses(of: url) == 1)
        // A rewritten URL: the one received, and the one it became, once each.
        URLParseCounter.watch(old)
        URLParseCounter.watch(rewritten)
        _ = try await host.run(#"assert(portolan.route("\#(old)"))"#, chunkName: "route.lua")
        #expect(URLParseCounter.parses(of: old) == 1)
        #expect(URLParseCounter.parses(of: rewritten) == 1)
    }
}
