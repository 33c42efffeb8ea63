import Portolan
import TestSupport
import Testing

/// Dropping what switch nodes keep for their other children (`resetTabs`): after a logout, the
/// other tabs must not show the previous user's screens.
@Suite struct TabResetTests {
    /// `root` keeps the stacks of `home` and `search`; `search` holds `filters`, which keeps its own.
    static func graph() throws -> NavigationGraph {
        try NavigationGraph(root: .switch("root", keepsStacks: true, [
            .screen("home", [.screen("article", [.screen("comments")])]),
            .screen("search", [.switch("filters", keepsStacks: true, [
                .screen("recent", [.screen("detail")]), .screen("saved"),
            ])]),
        ]))
    }

    private func route(_ tree: inout RoutingTree, _ ids: NodeID...) throws {
        _ = try planAndApply(&tree, to: .path(ids.map { Entry($0) }))
    }

    @Test func everyKeptStackIsDroppedAndTheActivePathStays() throws {
        var tree = RoutingTree(graph: try Self.graph())
        try route(&tree, "root", "home", "article", "comments")
        try route(&tree, "root", "search", "filters", "recent", "detail")
        try route(&tree, "root", "search", "filters", "saved")
        let active = tree.activePath
        let dropped = try tree.resetTabs()
        #expect(dropped.map(\.id) == ["article", "comments", "detail"])
        #expect(tree.activePath == active)
        // Each tab shows again as first shown.
        #expect(try tree.destination(switching: "root", to: "home") == .ids("root", "home"))
        #expect(try tree.destination(switching: "filters", to: "recent") == .ids("root", "search", "filters", "recent"))
        #expect(try tree.resetTabs().isEmpty, "nothing is left to drop")
    }

    @Test func oneSwitchsStacksAloneWhenNamed() throws {
        var tree = RoutingTree(graph: try Self.graph())
        try route(&tree, "root", "home", "article")
        try route(&tree, "root", "search", "filters", "recent", "detail")
        try route(&tree, "root", "search", "filters", "saved")
        #expect(try tree.resetTabs(of: "filters").map(\.id) == ["detail"])
        #expect(try tree.destination(switching: "root", to: "home") == .ids("root", "home", "article"))
        let before = tree
        #expect(throws: TreeUpdateError.notASwitch("home")) { try tree.resetTabs(of: "home") }
        #expect(throws: TreeUpdateError.notASwitch("nowhere")) { try tree.resetTabs(of: "nowhere") }
        #expect(tree == before)
    }

    @Test func theRouterResetsItsTree() async throws {
        let router = Router(graph: try Self.graph())
        _ = await router.route(to: .ids("root", "home", "article"))
        _ = await router.route(to: .ids("root", "search"))
        #expect(try router.resetTabs().map(\.id) == ["article"])
        #expect(await router.route(to: .ids("root", "home")).success.map(texts) == ["switch root -> home"])
        #expect(router.activePath.map(\.id) == ["root", "home"])
    }
}
