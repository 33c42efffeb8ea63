import Portolan
import TestSupport
import Testing

/// URL routes declared on a graph: resolution to destinations, contexts, errors, redirects.
@Suite struct GraphRoutesTests {
    static let root = NodeSpec.switch("root", active: "home", [
        NodeSpec.screen("home", [
            NodeSpec.screen("movie", [
                NodeSpec.screen("cast").routed("/movies/:movie<int>/cast/:id<int>"),
            ]).routed("/movies/:id<int>", "myapp://film/:id<int>"),
            NodeSpec.screen("search").routed("/search"),
        ]).routed("/"),
        NodeSpec.switch("tabs", [NodeSpec.screen("wishlist").routed("/wishlist"), NodeSpec.screen("watched").routed("/watched")]),
    ])

    static func graph() throws -> NavigationGraph {
        try NavigationGraph(root: root, anywhere: [NodeSpec.screen("settings", [.screen("about").routed("/about")]).routed("/settings")])
    }

    @Test func theMatchedNodesPathBecomesTheDestination() throws {
        let resolution = try Self.graph().resolve(url: "/movies/42/cast/7?ref=home&ref=push&debug#bio")
        #expect(resolution.node == "cast")
        #expect(resolution.destination == .path([
            "root", "home", Entry("movie", context: ["id": 42]), Entry("cast", context: ["movie": 42, "id": 7]),
        ]))
        #expect(resolution.query.map(\.description) == ["ref=home", "ref=push", "debug"])
        #expect(resolution.fragment == "bio")
        #expect(resolution.pattern == "/movies/:movie<int>/cast/:id<int>")
    }

    @Test func aCustomSchemeTakesItsHostAsTheFirstSegment() throws {
        let resolution = try Self.graph().resolve(url: "myapp://film/9")
        #expect(resolution.destination == .path(["root", "home", Entry("movie", context: ["id": 9])]))
    }

    @Test func switchChildrenAndAnywhereNodes() throws {
        #expect(try Self.graph().resolve(url: "/watched").destination == .path(["root", "tabs", "watched"]))
        #expect(try Self.graph().resolve(url: "/settings").destination == .anywhere("settings"))
        #expect(throws: RouteFailure.self) { try Self.graph().resolve(url: "/about") }
    }

    @Test func badURLsAreInvalidAndUnknownOnesUnreachable() throws {
        let graph = try Self.graph()
        for url in ["", "?", "#", "/movies/%zz", "/a\u{1}b", String(repeating: "a/", count: 5_000)] {
            #expect(Result { () throws(RouteFailure) in try graph.resolve(url: url) }.failure?.kind == .invalid, "\(url.prefix(20))")
        }
        #expect(Result { () throws(RouteFailure) in try graph.resolve(url: "/nowhere") }.failure?.kind == .unreachable)
        #expect(Result { () throws(RouteFailure) in try graph.resolve(url: "/movies/abc") }.failure?.kind == .unreachable)
    }

    @Test func ambiguousRoutesOfTwoNodesAreRefusedNamingBoth() {
        #expect(throws: GraphError.self) {
            try NavigationGraph(root: .screen("root", [
                NodeSpec.screen("a").routed("/books/:id"), NodeSpec.screen("b").routed("/books/:slug"),
            ]))
        }
        do {
            _ = try NavigationGraph(root: .screen("root", [
                NodeSpec.screen("a").routed("/books/:id"), NodeSpec.screen("b").routed("/books/:slug"),
            ]))
        } catch {
            #expect(error.description.contains("'/books/:slug' of 'b'") && error.description.contains("'/books/:id' of 'a'"))
        }
    }

    @Test func anInvalidPatternNamesItsNode() {
        #expect(throws: GraphError.self) { try NavigationGraph(root: NodeSpec.screen("root").routed("/a/:x<float>")) }
    }

    @Test func caseInsensitiveRoutesAreAnOptIn() throws {
        let spec = NodeSpec.screen("root", [NodeSpec.screen("a").routed("/Books")])
        #expect(throws: RouteFailure.self) { try NavigationGraph(root: spec).resolve(url: "/books") }
        #expect(try NavigationGraph(root: spec, caseInsensitiveRoutes: true).resolve(url: "/books").node == "a")
    }

    @Test func routerRoutesByURLThroughRedirectRulesAndHandsTheQueryOn() async throws {
        let router = Router(graph: try Self.graph())
        let seen = Locked<[String]>([])
        struct Spy: Enterable {
            let seen: Locked<[String]>
            func enter(_ entry: Entry, info: InstructionInfo) async throws {
                seen.withLock { $0.append("\(entry) ref=\(info.url?.query.first?.value ?? "-") #\(info.url?.fragment ?? "-")") }
            }
        }
        router.bind(Spy(seen: seen), to: "movie")
        try router.addRedirectRule(from: "/old/:n", to: "/movies/:n")
        router.addInterceptor(ClosureInterceptor { request in
            seen.withLock { $0.append("intercepted \(request.url?.url ?? "no url")") }
            return .pass
        })
        let result = await router.route(url: "/old/5?ref=mail#top")
        #expect(texts(try result.get()) == ["enter movie {id=5}"])
        #expect(seen.value == ["intercepted /movies/5?ref=mail#top", "movie {id=5} ref=mail #top"])
        #expect(await router.route(url: "/nowhere").failure?.kind == .unreachable)
    }

    @Test func redirectRuleLoopsAreCut() async throws {
        let router = Router(graph: try Self.graph())
        try router.addRedirectRule(from: "/a", to: "/b")
        try router.addRedirectRule(from: "/b", to: "/a")
        let failure = await router.route(url: "/a").failure
        #expect(failure?.kind == .invalid)
        #expect(failure?.message.contains("loop") == true)
    }

    @Test func redirectTemplatesCarryParametersIntact() throws {
        let router = Router(graph: try Self.graph())
        try router.addRedirectRule(from: "/find/:term", to: "/search?q=:term")
        let resolution = try router.resolve(url: "/find/a%20b%2Fc%3F").get()
        #expect(resolution.node == "search")
        #expect(resolution.query.map(\.description) == ["q=a b/c?"])
    }

    /// Issue 19: pattern rules and function rules are one list, run in declaration order by one
    /// loop under one `maxRedirects`, each kind seeing what the other made.
    @Test func functionRulesAndPatternRulesAreOneLoop() throws {
        let router = Router(graph: try Self.graph(), configuration: RouterConfiguration(maxRedirects: 2))
        try router.addRedirectRule(from: "/old/:n", to: "/mid/:n")
        router.addRedirectRule { url throws(RouteFailure) in
            url.hasPrefix("/mid/") ? "/movies/" + url.dropFirst(5) : nil
        }
        router.addRedirectRule { url throws(RouteFailure) in url == "/x" ? "/y" : url == "/y" ? "/old/3" : nil }
        #expect(try router.resolve(url: "/old/4").get().url == "/movies/4")
        // /x → /y → /old/3 → /mid/3 → /movies/3: four rewrites, over the limit of two.
        let failure = router.resolve(url: "/x").failure
        #expect(failure?.kind == .invalid)
        #expect(failure?.message == "too many redirect rule rewrites: more than 2: '/x' → '/y' → '/old/3' → '/mid/3'")
        #expect(failure?.redirectChain == .tooLong)
        router.addRedirectRule { url throws(RouteFailure) in
            if url == "/boom" { throw RouteFailure(.denied, "no") }
            return nil
        }
        #expect(router.resolve(url: "/boom").failure?.kind == .denied)
    }
}
