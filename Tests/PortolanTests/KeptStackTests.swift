import Portolan
import TestSupport
import Testing

/// Switch nodes that keep their children's stacks (`keep = true`), finders, and tab taps.
@Suite struct KeptStackTests {
    /// `root` switches between `home` and `search`, each a stack of screens.
    static func graph(keepsStacks: Bool) throws -> NavigationGraph {
        try NavigationGraph(root: .switch("root", keepsStacks: keepsStacks, [
            .screen("home", [.screen("article", [.screen("comments")])]),
            .screen("search", [.screen("results")]),
        ]))
    }

    private func plan(_ tree: inout RoutingTree, _ ids: NodeID...) throws -> [String] {
        texts(try planAndApply(&tree, to: .path(ids.map { Entry($0) })))
    }

    @Test func aKeepingSwitchSwitchesWithoutLeavingTheStack() throws {
        var tree = RoutingTree(graph: try Self.graph(keepsStacks: true))
        _ = try plan(&tree, "root", "home", "article", "comments")
        #expect(try plan(&tree, "root", "search", "results") == ["switch root -> search", "enter results"])
        // Back to home: its stack comes back as it was, nothing is entered again.
        #expect(try plan(&tree, "root", "home", "article", "comments") == ["switch root -> home"])
    }

    @Test func aPlainSwitchLeavesTheStackFirst() throws {
        var tree = RoutingTree(graph: try Self.graph(keepsStacks: false))
        _ = try plan(&tree, "root", "home", "article", "comments")
        #expect(try plan(&tree, "root", "search") == ["leave comments", "leave article", "switch root -> search"])
    }

    @Test func findLooksInKeptStacksToo() throws {
        var tree = RoutingTree(graph: try Self.graph(keepsStacks: true))
        _ = try plan(&tree, "root", "home", "article")
        _ = try plan(&tree, "root", "search", "results")
        #expect(tree.livePath(to: "results")?.map(\.id) == ["root", "search", "results"])
        #expect(tree.livePath(to: "article")?.map(\.id) == ["root", "home", "article"])
        #expect(tree.livePath(to: "comments") == nil)
        #expect(tree.livePath(to: "article", context: ["id": .integer(1)]) == nil)
    }

    @Test func aTabTapShowsTheKeptStack() throws {
        var tree = RoutingTree(graph: try Self.graph(keepsStacks: true))
        _ = try plan(&tree, "root", "home", "article")
        _ = try plan(&tree, "root", "search")
        #expect(try tree.destination(switching: "root", to: "home") == .ids("root", "home", "article"))
        // The child already showing: where the user is.
        #expect(try tree.destination(switching: "root", to: "search") == .ids("root", "search"))
        #expect(throws: RouteFailure.self) { try tree.destination(switching: "home", to: "article") }
        #expect(throws: RouteFailure.self) { try tree.destination(switching: "root", to: "nowhere") }
    }
}

/// Back through a switch node's history (`back = "history"`, Android's bottom navigation).
@Suite struct BackThroughHistoryTests {
    @Test func backReturnsTheSwitchToItsPreviousChildOnceNothingIsLeftToLeave() async throws {
        let graph = try NavigationGraph(root: NodeSpec(
            "root", kind: .switch, children: [
                .screen("home", [.screen("article")]), .screen("search"), .screen("profile"),
            ], keepsStacks: true, back: .fullHistory))
        let router = Router(graph: graph, configuration: .init(handlerTimeout: .seconds(600)))
        _ = await router.route(to: path("root", "home", "article"))
        _ = await router.route(to: path("root", "search"))
        _ = await router.route(to: path("root", "profile"))
        func back() async -> [String]? {
            (try? await router.back().get()).map(texts)
        }
        #expect(await back() == ["switch root -> search"])
        // Back to home, which kept its article; then back leaves the article; then nothing is left.
        #expect(await back() == ["switch root -> home"])
        #expect(router.activePath.map(\.id) == ["root", "home", "article"])
        #expect(await back() == ["leave article"])
        #expect(await back() == nil)
    }

    /// Found by the soak: every switch was kept for back, so a long session of tab taps grew the
    /// router's memory without end. Back now reaches the last 1,000 switches.
    @Test func backReachesTheLastThousandSwitchesAndNoFurther() async throws {
        let graph = try NavigationGraph(root: NodeSpec(
            "root", kind: .switch, children: [.screen("home"), .screen("search")], keepsStacks: true, back: .fullHistory))
        let router = Router(graph: graph, configuration: .init(handlerTimeout: .seconds(600)))
        let backs = await router.thread.run {
            for index in 0..<1_500 {
                _ = router.routeNow(to: path("root", index % 2 == 0 ? "search" : "home"))
            }
            var backs = 0
            while case .success = router.backNow(), backs <= 1_500 {
                backs += 1
            }
            return backs
        }
        #expect(backs == 1_000)
    }
}
