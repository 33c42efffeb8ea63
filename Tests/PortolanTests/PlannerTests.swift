import Portolan
import TestSupport
import Testing

@Suite struct PlannerTests {
    private func plan(_ tree: RoutingTree, _ destination: Destination, canLeave: Planner.LeaveCheck = { _ in true }) -> RouteResult {
        Result { () throws(RouteFailure) in try Planner.plan(from: tree, to: destination, canLeave: canLeave) }
    }

    private func treeAt(_ ids: NodeID..., anywhere: [NodeSpec] = []) throws -> RoutingTree {
        var tree = try PortusTree.tree(anywhere: anywhere)
        _ = try planAndApply(&tree, to: .path(ids.map { Entry($0) }))
        return tree
    }

    @Test func routingToWhereYouAreDoesNothing() throws {
        let tree = try treeAt("switchNode1", "node1", "node5", "node8")
        #expect(plan(tree, path("switchNode1", "node1", "node5", "node8")).success == [])
    }

    @Test func aPrefixOfTheActivePathLeavesDownToIt() throws {
        let tree = try treeAt("switchNode1", "node1", "node5", "node8")
        #expect(texts(try plan(tree, path("switchNode1", "node1")).get()) == ["leave node8", "leave node5"])
    }

    @Test func aPrefixEndingAtASwitchKeepsItsManagedChildren() throws {
        let tree = try treeAt("switchNode1", "node2", "switchNode3", "node12")
        #expect(plan(tree, path("switchNode1", "node2", "switchNode3")).success == [])
        #expect(texts(try plan(tree, path("switchNode1", "node2")).get()) == ["leave switchNode3"])
    }

    @Test func theSameIDWithAnotherContextIsLeftAndEnteredAgain() throws {
        var tree = try PortusTree.tree()
        let first = Destination.path(["switchNode1", "node1", Entry("node5", context: ["id": 1]), "node8"])
        _ = try planAndApply(&tree, to: first)
        let second = Destination.path(["switchNode1", "node1", Entry("node5", context: ["id": 2])])
        #expect(texts(try plan(tree, second).get()) == ["leave node8", "leave node5 {id=1}", "enter node5 {id=2}"])
    }

    @Test func aManagedChildWithAnotherContextIsSwitchedToWithIt() throws {
        let tree = try PortusTree.tree()
        let destination = Destination.path(["switchNode1", Entry("node1", context: ["tab": "x"])])
        #expect(texts(try plan(tree, destination).get()) == ["switch switchNode1 -> node1 {tab=x}"])
    }

    @Test func switchingBackFindsWhatTheHostLeftOpenInsideATab() throws {
        var tree = try treeAt("switchNode1", "node1", "node5")
        try tree.didSwitch("switchNode1", to: "node2")
        // node1 still holds node5: the host switched tabs without leaving anything.
        #expect(texts(try plan(tree, path("switchNode1", "node1", "node5", "node9")).get())
            == ["switch switchNode1 -> node1", "enter node9"])
    }

    @Test func unknownNodeIsUnreachable() throws {
        let failure = plan(try PortusTree.tree(), path("switchNode1", "node1", "ghost")).failure
        #expect(failure?.kind == .unreachable)
        #expect(failure?.message == "no node 'ghost' is declared")
    }

    @Test func aNodeOffItsDeclaredParentIsUnreachable() throws {
        let failure = plan(try PortusTree.tree(), path("switchNode1", "node1", "node11")).failure
        #expect(failure?.kind == .unreachable)
        #expect(failure?.message == "'node11' is not a child of node 'node1'")
    }

    @Test func aSwitchTargetThatIsNotAChildIsUnreachable() throws {
        let failure = plan(try PortusTree.tree(), path("switchNode1", "node5")).failure
        #expect(failure?.kind == .unreachable)
        #expect(failure?.message == "'node5' is not a child of switch node 'switchNode1'")
    }

    @Test func rootMismatchIsUnreachable() throws {
        let tree = try PortusTree.tree()
        #expect(plan(tree, path("node1", "node5")).failure?.kind == .unreachable)
        let rootWithContext = Destination.path([Entry("switchNode1", context: ["x": 1])])
        #expect(plan(tree, rootWithContext).failure?.message.hasPrefix("root mismatch") == true)
    }

    @Test func malformedDestinationsAreInvalid() throws {
        let tree = try PortusTree.tree()
        #expect(plan(tree, .path([])).failure?.kind == .invalid)
        #expect(plan(tree, .path(["switchNode1", ""])).failure?.kind == .invalid)
        let nan = Destination.path(["switchNode1", Entry("node1", context: ["x": .number(.nan)])])
        #expect(plan(tree, nan).failure?.kind == .invalid)
        #expect(plan(tree, .anywhere(Entry(""))).failure?.kind == .invalid)
    }

    @Test func aVetoBlocksBeforeAnythingRuns() throws {
        let tree = try treeAt("switchNode1", "node1", "node5", "node8")
        let failure = plan(tree, path("switchNode1", "node2"), canLeave: { $0.id != "node5" }).failure
        #expect(failure?.kind == .blocked)
        #expect(failure?.instruction == .leave("node5"))
        #expect(failure?.executed == [])
    }

    @Test func aThrowingVetoIsAFailedHandler() throws {
        struct Broken: Error {}
        let tree = try treeAt("switchNode1", "node1", "node5")
        let failure = plan(tree, path("switchNode1", "node2"), canLeave: { _ in throw Broken() }).failure
        #expect(failure?.kind == .handlerFailed)
    }

    @Test func managedNodesAreNeverAskedToBeLeft() throws {
        var asked: [NodeID] = []
        let tree = try treeAt("switchNode1", "switchNode2", "node4")
        _ = plan(tree, path("switchNode1", "node1", "node6"), canLeave: { asked.append($0.id); return true })
        #expect(asked == [])
    }

    @Test func anywhereIsEnteredOnTopOfTheActiveLeaf() throws {
        let tree = try treeAt("switchNode1", "node1", "node5", anywhere: [.screen("alert")])
        #expect(texts(try plan(tree, .anywhere("alert")).get()) == ["enter alert"])
    }

    @Test func anywhereIsNotEnteredAgainWhenItIsTheLeaf() throws {
        var tree = try treeAt("switchNode1", "node1", "node5", anywhere: [.screen("alert")])
        _ = try planAndApply(&tree, to: .anywhere(Entry("alert", context: ["m": "hi"])))
        #expect(plan(tree, .anywhere(Entry("alert", context: ["m": "hi"]))).success == [])
        #expect(texts(try plan(tree, .anywhere(Entry("alert", context: ["m": "bye"]))).get())
            == ["leave alert {m=hi}", "enter alert {m=bye}"])
    }

    @Test func aNodeNotDeclaredAnywhereCannotBeADynamicDestination() throws {
        let failure = plan(try PortusTree.tree(), .anywhere("node8")).failure
        #expect(failure?.kind == .unreachable)
        #expect(plan(try PortusTree.tree(), .anywhere("ghost")).failure?.kind == .unreachable)
    }

    @Test func anEnteredAnywhereNodeCanBePartOfAPath() throws {
        var tree = try treeAt("switchNode1", "node1", "node5", anywhere: [.screen("alert")])
        _ = try planAndApply(&tree, to: .anywhere("alert"))
        #expect(plan(tree, .path(tree.activePath)).success == [])
        #expect(texts(try plan(tree, path("switchNode1", "node1", "node5")).get()) == ["leave alert"])
    }

    @Test func planningDoesNotTouchTheTree() throws {
        let tree = try treeAt("switchNode1", "node1", "node5", "node8")
        let before = tree
        _ = plan(tree, path("switchNode1", "node2", "switchNode3", "node12"))
        #expect(tree == before)
    }
}
