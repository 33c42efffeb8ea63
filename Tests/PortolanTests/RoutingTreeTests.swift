@testable import Portolan
import Testing

@Suite struct RoutingTreeTests {
    @Test func hostEnteredNodeJoinsTheActivePath() throws {
        var tree = try PortusTree.tree()
        #expect(try tree.didEnter("node5") == .enter("node5"))
        #expect(tree.activePath == ["switchNode1", "node1", "node5"])
    }

    @Test func hostCannotEnterANodeOffTheGraph() throws {
        var tree = try PortusTree.tree()
        #expect(throws: TreeUpdateError.cannotEnter("node11", onTopOf: "node1")) { try tree.didEnter("node11") }
        #expect(throws: TreeUpdateError.unknownNode("ghost")) { try tree.didEnter("ghost") }
        #expect(tree.activePath == ["switchNode1", "node1"])
    }

    @Test func hostLeftNodeTakesItsSubtreeWithIt() throws {
        var tree = try PortusTree.tree()
        try tree.didEnter("node5")
        try tree.didEnter("node8")
        try tree.didLeave("node5")
        #expect(tree.activePath == ["switchNode1", "node1"])
    }

    @Test func hostCannotLeaveManagedNodesOrTheRoot() throws {
        var tree = try PortusTree.tree()
        #expect(throws: TreeUpdateError.managedByParent("node1")) { try tree.didLeave("node1") }
        #expect(throws: TreeUpdateError.cannotLeaveRoot) { try tree.didLeave("switchNode1") }
        #expect(throws: TreeUpdateError.notOnActivePath("node9")) { try tree.didLeave("node9") }
    }

    @Test func hostSwitchKeepsTheOtherTabsStack() throws {
        var tree = try PortusTree.tree()
        try tree.didEnter("node5")
        try tree.didSwitch("switchNode1", to: "switchNode2")
        #expect(tree.activePath == ["switchNode1", "switchNode2", "node3"])
        try tree.didSwitch("switchNode1", to: "node1")
        #expect(tree.activePath == ["switchNode1", "node1", "node5"])
    }

    @Test func hostSwitchIsValidated() throws {
        var tree = try PortusTree.tree()
        #expect(throws: TreeUpdateError.notAChild("node5", ofSwitch: "switchNode1")) {
            try tree.didSwitch("switchNode1", to: "node5")
        }
        #expect(throws: TreeUpdateError.notASwitch("node1")) { try tree.didSwitch("node1", to: "node5") }
        #expect(throws: TreeUpdateError.notASwitch("switchNode3")) { try tree.didSwitch("switchNode3", to: "node12") }
    }

    @Test func textRenderingMarksTheActivePath() throws {
        var tree = try PortusTree.tree()
        try tree.didEnter("node5")
        #expect(TreeRenderer.text(tree) == """
            switchNode1 [switch] *
            ├─ switchNode2 [switch]
            │  ├─ node3 ·
            │  └─ node4
            ├─ node1 *
            │  └─ node5 *
            └─ node2
            """)
    }
}
