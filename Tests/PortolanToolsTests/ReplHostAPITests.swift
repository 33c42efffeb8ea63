import Portolan
import PortolanLua
@testable import PortolanTools
import Testing

/// The REPL drives the host through its Swift API: a route by URL crosses into Lua only where the
/// app's own code runs (handlers, guards, redirect rules), never to run Lua of the REPL's.
@Suite struct ReplHostAPITests {
    private static func session() async throws -> (ReplSession, Locked<[String]>) {
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: nil, output: { line in output.withLock { $0.append(line) } })
        return (session, output)
    }

    @Test func aRouteByURLEvaluatesNoChunkOfTheREPLs() async throws {
        let (session, output) = try await Self.session()
        let before = await session.host.chunksLoaded
        // A static redirect rule, a Lua function rule (`myapp://`), a plan and an id path.
        for line in ["/films/7", "myapp://wishlist", "/settings", ":plan /wishlist", "/root/dashboard"] {
            await session.handle(line)
        }
        #expect(await session.host.chunksLoaded == before)
        let lines = output.value
        #expect(lines.contains("rewritten to /wishlist/movies/7 by the redirect rules"))
        #expect(lines.contains { $0.hasPrefix("matched /settings") })
        // The counter counts: a Lua line typed at the prompt is one chunk.
        await session.handle("x = 1")
        #expect(await session.host.chunksLoaded > before)
    }

    /// Issue 19: a URL line was read three times (the origin, the redirect rules, the patterns);
    /// now once, whatever the line does with it.
    @Test func aURLLineIsParsedOnce() async throws {
        let (session, _) = try await Self.session()
        await session.handle("login()")
        for (line, url) in [("/wishlist/movies/7304", "/wishlist/movies/7304"), (":plan /wishlist/movies/7305", "/wishlist/movies/7305")] {
            URLParseCounter.watch(url)
            await session.handle(line)
            #expect(URLParseCounter.parses(of: url) == 1, "\(line)")
        }
    }

    @Test func theHostResolvesWithFunctionRulesAndRoutesTheResolution() async throws {
        let host = try PortolanHost()
        try await host.loadApp(.source("""
            portolan.app { id = "root", children = { { id = "a", route = "/a/:n<int>" } } }
            seen = 0
            portolan.redirect_rule(function(url) seen = seen + 1 if url == "/old" then return "/a/3" end end)
            """, chunkName: "=app"))
        let resolution = try await host.resolve(url: "/old").get()
        #expect(resolution.url == "/a/3")
        #expect(resolution.node == "a")
        // The rules ran on "/old", then once more on what it became.
        let seenByResolving = try await host.evaluate("seen")
        #expect(seenByResolving == ["2"])
        let result = await host.route(resolved: resolution)
        #expect((try? result.get())?.map(\.description) == ["enter a {n=3}"])
        // Routing the resolution does not resolve it again.
        let seenByRouting = try await host.evaluate("seen")
        #expect(seenByRouting == ["2"])
        // A rule that raises fails the route with its message, and the host lives on.
        try await host.run(#"portolan.redirect_rule(function(url) if url == "/boom" then error("no way") end end)"#, chunkName: "=more")
        guard case .failure(let failure) = await host.route(url: "/boom") else {
            Issue.record("a raising rule must fail the route")
            return
        }
        #expect(failure.kind == .invalid)
        #expect(failure.message.contains("more:1: no way"))
        #expect(await host.router?.activePath.map(\.id) == ["root", "a"])
    }
}

/// Steps show in the REPL's event stream (`:events on`).
@Suite struct ReplStepEventTests {
    @Test func aStepShowsWithTheRouteItAskedFor() async throws {
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: nil, output: { line in output.withLock { $0.append(line) } })
        await session.handle("login()")
        await session.handle(":events on")
        output.withLock { $0 = [] }
        await session.handle(#"portolan.step("movie_picked", { id = 5 })"#)
        #expect(output.value.contains("· will_route root > dashboard > wishlist > wishlist_movie {id=5} (step movie_picked {id=5})"),
                "\(output.value)")
    }
}
