import Portolan
import Testing

/// The tree keeps its active path as an array and what hangs off it with its switch nodes; these
/// check what that storage must keep: kept tabs, depth, equality, migration.
@Suite struct ActivePathTests {
    /// A chain of screens `c0 > c1 > … > c(depth-1)`.
    static func chain(depth: Int) throws -> NavigationGraph {
        var spec = NodeSpec.screen("c\(depth - 1)")
        for level in stride(from: depth - 2, through: 0, by: -1) {
            spec = .screen("c\(level)", [spec])
        }
        return try NavigationGraph(root: spec)
    }

    @Test func switchingBackToATabRestoresItsSubtree() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let stack = tree.root
        // The host taps the other tab, and inside it the other child (a planned route would leave
        // the stack first; a tab tap keeps it).
        try tree.didSwitch("switchNode1", to: "switchNode2")
        try tree.didSwitch("switchNode2", to: "node4")
        #expect(tree.activePath == ["switchNode1", "switchNode2", "node4"])
        try tree.didSwitch("switchNode1", to: "node1")
        #expect(tree.activePath == ["switchNode1", "node1", "node5", "node8"])
        try tree.didSwitch("switchNode1", to: "switchNode2")
        // The planner sees the kept stack too: going back to it is one switch, nothing entered.
        #expect(try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8")) == [.switch("switchNode1", to: "node1")])
        #expect(tree.activePath == ["switchNode1", "node1", "node5", "node8"])
        // The nested switch kept its own choice while it was not shown.
        #expect(try planAndApply(&tree, to: path("switchNode1", "switchNode2"))
            == [.leave("node8"), .leave("node5"), .switch("switchNode1", to: "switchNode2")])
        #expect(tree.activePath == ["switchNode1", "switchNode2", "node4"])
        try tree.didSwitch("switchNode2", to: "node3")
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        #expect(tree.root == stack)
    }

    @Test func aTabComesBackWithTheContextItWasLeftWith() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: .path(["switchNode1", Entry("node1", context: ["id": 7]), "node5"]))
        try tree.didSwitch("switchNode1", to: "node2")
        let back = try tree.didSwitch("switchNode1", to: "node1")
        #expect(back == .switch("switchNode1", to: Entry("node1", context: ["id": 7])))
        #expect(tree.activePath == ["switchNode1", Entry("node1", context: ["id": 7]), "node5"])
    }

    @Test func applyAtDepthOneThousandIsCorrect() throws {
        let depth = NavigationGraph.maximumDepth
        var tree = RoutingTree(graph: try Self.chain(depth: depth))
        let entries = (0..<depth).map { Entry("c\($0)") }
        #expect(try planAndApply(&tree, to: .path(entries)).count == depth - 1)
        #expect(tree.activePath == entries)
        #expect(tree.depth == depth)
        #expect(tree.leaf == Entry("c\(depth - 1)"))
        #expect(tree.activeNodes.map(\.entry) == entries)
        #expect(TreeRendererCount.nodes(in: tree) == depth)
        // The limit holds at the leaf: nothing more fits.
        #expect(throws: TreeUpdateError.tooDeep(limit: depth)) { try tree.didEnter("c1") }
        // A leave in the middle takes everything below with it.
        try tree.didLeave("c500")
        #expect(tree.activePath == Array(entries.prefix(500)))
        #expect(try planAndApply(&tree, to: .path(entries)) == entries[500...].map { .enter($0) })
        #expect(try planAndApply(&tree, to: path("c0")) == entries.dropFirst().reversed().map { .leave($0) })
        #expect(tree == RoutingTree(graph: try Self.chain(depth: depth)))
    }

    @Test func sameNodesMakeEqualTreesWhateverTheRoute() throws {
        var direct = try PortusTree.tree()
        _ = try planAndApply(&direct, to: path("switchNode1", "node2", "node7"))
        var roundabout = try PortusTree.tree()
        _ = try planAndApply(&roundabout, to: path("switchNode1", "node1", "node5", "node8"))
        _ = try planAndApply(&roundabout, to: path("switchNode1", "node1"))
        _ = try planAndApply(&roundabout, to: path("switchNode1", "node2", "switchNode3", "node12"))
        _ = try planAndApply(&roundabout, to: path("switchNode1", "node2", "node7"))
        #expect(direct == roundabout)
        // A kept tab makes a difference, though the active paths agree.
        var kept = direct
        try kept.didSwitch("switchNode1", to: "node1")
        try kept.didEnter("node6")
        try kept.didSwitch("switchNode1", to: "node2")
        #expect(kept.activePath == direct.activePath)
        #expect(kept != direct)
    }

    @Test func migrationKeepsAParkedTabUnderTheNewGraphsIndices() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try tree.didSwitch("switchNode1", to: "node2")
        // A new first child shifts every node index after the root.
        var root = PortusTree.root
        root.children.insert(.screen("news"), at: 0)
        let carried = Router(tree: tree).carried(
            to: try NavigationGraph(root: root), version: 1, migrations: [:], from: RulesIdentity(version: 1, hash: ""))
        var migrated = carried.tree
        #expect(migrated.activePath == ["switchNode1", "node2"])
        try migrated.didSwitch("switchNode1", to: "node1")
        #expect(migrated.activePath == ["switchNode1", "node1", "node5", "node8"])
        try migrated.didLeave("node8")
        try migrated.didEnter("node9")
        #expect(migrated.activePath == ["switchNode1", "node1", "node5", "node9"])
        #expect(try planAndApply(&migrated, to: path("switchNode1", "news"))
            == [.leave("node9"), .leave("node5"), .switch("switchNode1", to: "news")])
    }

    @Test func anAnywhereSwitchEnteredTwiceKeepsEachOnesTabs() throws {
        let sheet = NodeSpec.switch("sheet", [.screen("front", [.screen("detail")]), .screen("back")])
        var tree = try PortusTree.tree(anywhere: [sheet])
        try tree.didEnter("sheet")
        try tree.didEnter("detail")
        try tree.didEnter("sheet")
        try tree.didSwitch("sheet", to: "back")
        #expect(tree.activePath == ["switchNode1", "node1", "sheet", "front", "detail", "sheet", "back"])
        // The deeper sheet is the one left; the shallower one still shows its stack.
        try tree.didLeave("sheet")
        #expect(tree.activePath == ["switchNode1", "node1", "sheet", "front", "detail"])
        try tree.didSwitch("sheet", to: "back")
        try tree.didSwitch("sheet", to: "front")
        #expect(tree.activePath == ["switchNode1", "node1", "sheet", "front", "detail"])
    }
}
