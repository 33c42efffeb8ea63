@testable import Portolan
import TestSupport
import Testing

/// Cases the planner's properties (PlannerPropertyTests) once found broken.
@Suite struct PlannerRegressionTests {
    /// switchNode1 > node1 > node5, then route to switchNode1 > node1 {tab=x}: the planner once read
    /// node1 from the switch's snapshot taken before node5 was left, and planned to leave node5 twice.
    @Test func switchingToTheShownChildWithAnotherContextLeavesOnce() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let destination = Destination.path(["switchNode1", Entry("node1", context: ["tab": "x"])])
        let plan = try Planner.plan(from: tree, to: destination)
        #expect(texts(plan) == ["leave node5", "switch switchNode1 -> node1 {tab=x}"])
        for instruction in plan {
            try tree.apply(instruction)
        }
        #expect(tree.activePath == ["switchNode1", Entry("node1", context: ["tab": "x"])])
    }

    /// Entering the anywhere switch `login` (leaf: its managed `password`), then routing anywhere to
    /// `login` again: the planner once compared with the managed leaf and entered it again.
    @Test func routingAnywhereToASwitchTwiceDoesNothing() throws {
        var tree = try PortusTree.tree(anywhere: [.switch("login", [.screen("password"), .screen("code")])])
        #expect(texts(try planAndApply(&tree, to: .anywhere("login"))) == ["enter login"])
        #expect(try Planner.plan(from: tree, to: .anywhere("login")) == [])
        let other = Entry("login", context: ["as": "guest"])
        #expect(texts(try Planner.plan(from: tree, to: .anywhere(other))) == ["leave login", "enter login {as=guest}"])
    }
}
