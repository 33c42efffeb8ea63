import Portolan
import TestSupport
import Testing

@Suite struct TreeMigrationTests {
    @Test func nodesThatStillExistAreKeptWithTheirContext() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: .path(["switchNode1", "node1", Entry("node5", context: ["id": 3]), "node8"]))
        let migration = TreeMigration(from: tree, to: try PortusTree.graph())
        #expect(migration.tree.activePath == tree.activePath)
        #expect(migration.instructions == [])
    }

    @Test func removedNodesAreLeftBottomUp() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let smaller = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node6")]), .screen("node2"),
        ]))
        let migration = TreeMigration(from: tree, to: smaller)
        #expect(texts(migration.instructions) == ["leave node8", "leave node5"])
        #expect(migration.tree.activePath == ["switchNode1", "node1"])
    }

    @Test func aVanishedActiveTabIsSwitchedAwayFromAndNewTabsAppear() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node2", "node7"))
        let reshaped = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node5")]), .screen("node9"),
        ]))
        let migration = TreeMigration(from: tree, to: reshaped)
        #expect(texts(migration.instructions) == ["leave node7", "switch switchNode1 -> node1"])
        #expect(migration.tree.root.children.map(\.entry.id) == ["node1", "node9"])
        #expect(try Planner.plan(from: migration.tree, to: path("switchNode1", "node9")) == [.switch("switchNode1", to: "node9")])
    }

    @Test func aNodeThatChangedKindIsReplaced() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let changed = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.switch("node5", [.screen("x")])]),
        ]))
        let migration = TreeMigration(from: tree, to: changed)
        #expect(texts(migration.instructions) == ["leave node5"])
        #expect(migration.tree.activePath == ["switchNode1", "node1"])
    }

    @Test func aNewRootStartsAfresh() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let migration = TreeMigration(from: tree, to: try NavigationGraph(root: .screen("other")))
        #expect(migration.tree.activePath == ["other"])
    }
}
