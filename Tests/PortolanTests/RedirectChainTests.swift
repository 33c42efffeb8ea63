import Portolan
import TestSupport
import Testing

/// Issue 35, part 4: redirects as the peers define them, on a router with Swift interceptors. A
/// redirect to a URL keeps its query and fragment; one to where the request already goes settles
/// (go_router); a loop and a chain that is too long fail apart; each hop knows it is one (Vue
/// Router's `redirectedFrom`).
@Suite struct RedirectChainTests {
    static let root = NodeSpec.screen("root", [
        NodeSpec.screen("home").routed("/"),
        NodeSpec.screen("login").routed("/login"),
        NodeSpec.screen("checkout").routed("/checkout"),
        NodeSpec.screen("page").routed("/pages/:n<int>"),
    ])

    /// A router whose interceptor is `decide`, with `login`'s entries recorded as `info` shows them.
    private static func router(
        maxRedirects: Int = 8, _ decide: @escaping @Sendable (RouteRequest) -> InterceptionDecision
    ) throws -> (Router, Locked<[String]>) {
        let router = Router(graph: try NavigationGraph(root: root), configuration: RouterConfiguration(maxRedirects: maxRedirects))
        let seen = Locked<[String]>([])
        router.bind(NodeHandlers(enter: { entry, info in
            let query = info.url?.query.map(\.description).joined(separator: "&") ?? "-"
            seen.withLock { $0.append("\(entry) url=\(info.url?.url ?? "-") query=\(query) #\(info.url?.fragment ?? "-")") }
        }), to: "login")
        router.addInterceptor(InterceptorHandler { request in decide(request) })
        return (router, seen)
    }

    /// Before, a redirect to a URL reached its screen with no `info.url`, `query` or `fragment`,
    /// while a route to that very URL had them.
    @Test func aRedirectToAURLKeepsItsQueryAndFragment() async throws {
        let (router, seen) = try Self.router { request in
            request.goes(to: "checkout") ? .redirectToURL("/login?from=%2Fcheckout#form") : .pass
        }
        #expect(try await router.route(to: .ids("root", "checkout")).get().map(\.description) == ["enter login"])
        #expect(try await router.route(to: .ids("root")).get().map(\.description) == ["leave login"])
        #expect(try await router.route(url: "/login?from=%2Fcheckout#form").get().map(\.description) == ["enter login"])
        try #require(seen.value.count == 2)
        #expect(seen.value[0] == "login url=/login?from=%2Fcheckout#form query=from=/checkout #form")
        #expect(seen.value[0] == seen.value[1])
        // A redirect to a destination carries no URL, even from a route asked for by one.
        let (byValue, seenByValue) = try Self.router { request in
            request.goes(to: "checkout") ? .redirect(.ids("root", "login")) : .pass
        }
        #expect(try await byValue.route(url: "/checkout?x=1").get().count == 1)
        #expect(seenByValue.value == ["login url=- query=- #-"])
    }

    /// Before, a redirect to where the route already went ran every interceptor again until
    /// `maxRedirects` ended it in a loop.
    @Test func aRedirectToWhereTheRequestGoesLetsItPass() async throws {
        let (router, _) = try Self.router { request in
            request.goes(to: "home") ? .pass : .redirectToURL("/login")
        }
        #expect(try await router.route(to: .ids("root", "login")).get().map(\.description) == ["enter login"])
        #expect(try await router.route(to: .ids("root", "home")).get().count == 2)
        // From elsewhere: one redirect, then the redirect to where it goes settles it.
        let plan = await router.plan(to: .ids("root", "checkout"))
        #expect(plan.redirects == [.ids("root", "login")])
        #expect(plan.result.map { $0.map(\.description) } == .success(["leave home", "enter login"]))
        // The same destination with another query is another location: followed, then settled.
        let redirects = Locked(0)
        let (queried, _) = try Self.router { request in
            redirects.withLock { $0 += request.redirectedFrom == nil ? 0 : 1 }
            return request.url?.query.isEmpty == false ? .pass : .redirectToURL("/login?again=1")
        }
        #expect(try await queried.route(url: "/login").get().map(\.description) == ["enter login"])
        #expect(redirects.value == 1)
    }

    @Test func aLoopAndAChainThatIsTooLongFailApart() async throws {
        let (looping, _) = try Self.router { request in
            request.goes(to: "checkout") ? .redirect(.ids("root", "login")) : request.goes(to: "login") ? .redirectToURL("/checkout") : .pass
        }
        let loop = await looping.route(to: .ids("root", "checkout")).failure
        #expect(loop?.kind == .invalid)
        #expect(loop?.redirectChain == .loop)
        #expect(loop?.message == "redirect loop: 'root > checkout' → 'root > login' → 'root > checkout' (/checkout)")
        // Every page sends the route on to the next one: no location comes back.
        let (endless, _) = try Self.router(maxRedirects: 3) { request in
            guard case .path(let entries) = request.destination, let top = entries.last, top.id == "page",
                  case .integer(let n)? = top.context["n"] else { return .pass }
            return .redirectToURL("/pages/\(n + 1)")
        }
        let long = await endless.route(url: "/pages/1").failure
        #expect(long?.kind == .invalid)
        #expect(long?.redirectChain == .tooLong)
        #expect(long?.message == "too many redirects: more than 3: 'root > page {n=1}' (/pages/1) → 'root > page {n=2}' (/pages/2) → "
            + "'root > page {n=3}' (/pages/3) → 'root > page {n=4}' (/pages/4) → 'root > page {n=5}' (/pages/5)")
        #expect(endless.activePath.map(\.id) == ["root"])
    }

    /// An interceptor can tell a redirect hop from a navigation's first decision, so a check meant
    /// once per navigation runs once.
    @Test func eachHopKnowsWhereTheNavigationStarted() async throws {
        let seen = Locked<[String]>([])
        let (router, _) = try Self.router { request in
            seen.withLock { $0.append("\(request.destination) from \(request.redirectedFrom.map(\.description) ?? "-")") }
            return request.goes(to: "checkout") ? .redirectToURL("/login") : .pass
        }
        #expect(try await router.route(to: .ids("root", "checkout")).get().count == 1)
        #expect(seen.value == ["root > checkout from -", "root > login from root > checkout"])
    }

    /// URL redirect rules settle the same way: a rule that gives back its URL rewrites nothing,
    /// and the rules after it are asked.
    @Test func aRedirectRuleThatGivesBackItsURLRewritesNothing() async throws {
        let router = Router(graph: try NavigationGraph(root: Self.root))
        router.addRedirectRule { url throws(RouteFailure) in url }
        try router.addRedirectRule(from: "/old", to: "/checkout")
        #expect(try router.resolve(url: "/old").get().node == "checkout")
        #expect(try router.resolve(url: "/login").get().node == "login")
    }
}
