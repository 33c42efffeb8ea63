@testable import Portolan
import TestSupport
import Testing

/// A planned route's steps (`PlannedRoute`, `RoutingTree.apply(_:step:)`): on the tree they were
/// planned on they trust what the planner resolved, and leave the tree exactly as the instructions
/// would; on a tree that changed otherwise meanwhile they are validated and refused as before.
@Suite struct PlannedRouteTests {
    /// Portus's tour, and a route to the anywhere screen alone.
    private let destinations = PortusTree.tour + [.anywhere("alert")]

    /// The deep path the stale plans below start from, and the plan back up from it.
    private func treeAtNode8() throws -> RoutingTree {
        var tree = try PortusTree.tree(anywhere: [.screen("alert")])
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        return tree
    }

    @Test func plannedStepsLeaveTheTreeAsTheirInstructionsDo() throws {
        var planned = try PortusTree.tree(anywhere: [.screen("alert")])
        var validated = planned
        var steps = 0
        for _ in 0..<2 {
            for from in destinations {
                for to in destinations {
                    for destination in [from, to] {
                        let route = try Planner.route(from: planned, to: destination)
                        #expect(route.instructions == (try Planner.plan(from: validated, to: destination)))
                        for step in route.instructions.indices {
                            try planned.apply(route, step: step)
                            try validated.apply(route.instructions[step])
                            #expect(planned == validated, "after \(route.instructions[step])")
                            #expect(planned.switches == validated.switches && planned.nodeIndices == validated.nodeIndices)
                            steps += 1
                        }
                    }
                }
            }
        }
        #expect(steps > 300)
    }

    /// The leaf the plan leaves was replaced by the host after planning: the planned step must not
    /// remove whatever now stands at its depth (trusting the plan would take `node9` away).
    @Test func aStepPlannedBeforeTheHostChangedTheTreeIsValidatedAndRefused() throws {
        var tree = try treeAtNode8()
        let route = try Planner.route(from: tree, to: path("switchNode1", "node1"))
        #expect(route.instructions == [.leave("node8"), .leave("node5")])
        try tree.didLeave("node8")
        try tree.didEnter("node9")
        let before = tree
        #expect(throws: TreeUpdateError.notOnActivePath("node8")) { try tree.apply(route, step: 0) }
        #expect(tree.activePath == before.activePath && tree.nodeIndices == before.nodeIndices)
        #expect(tree.leaf == "node9")
    }

    /// A plan made on one copy of a tree, applied to another copy that went its own way.
    @Test func aPlanOfAnotherCopyIsValidated() throws {
        let tree = try treeAtNode8()
        var other = tree
        try other.didLeave("node8")
        try other.didEnter("node10")
        let route = try Planner.route(from: tree, to: path("switchNode1", "node1"))
        #expect(throws: TreeUpdateError.notOnActivePath("node8")) { try other.apply(route, step: 0) }
        #expect(other.leaf == "node10")
    }

    /// A plan applied once is stale: applying its steps again validates them.
    @Test func aPlanAppliedTwiceIsValidatedTheSecondTime() throws {
        var tree = try treeAtNode8()
        let route = try Planner.route(from: tree, to: path("switchNode1", "node1", "node5"))
        #expect(route.instructions == [.leave("node8")])
        try tree.apply(route, step: 0)
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node9"))
        #expect(throws: TreeUpdateError.notOnActivePath("node8")) { try tree.apply(route, step: 0) }
        #expect(tree.leaf == "node9")
    }

    /// Reverting a step (a rollback) and resetting tabs are changes too.
    @Test func everyChangeGivesTheTreeANewGeneration() throws {
        var tree = try treeAtNode8()
        var seen: Set<UInt64> = [tree.generation]
        let step = tree.undoStep(for: .leave("node8"))
        try tree.apply(.leave("node8"))
        seen.insert(tree.generation)
        tree.revert(step)
        seen.insert(tree.generation)
        try tree.resetTabs()
        seen.insert(tree.generation)
        #expect(seen.count == 4)
    }

    /// Through the router: a handler that changes the tree by a host's report before its step is
    /// applied makes that step validate, and the route fails as it did before plans carried steps.
    @Test func aHandlerThatChangesTheTreeFailsTheRouteAtTheStaleStep() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        router.bind(NodeHandlers(leave: { _, _ in
            try router.didLeave("node8")
            try router.didEnter("node9")
        }), to: "node8")
        let result = await router.route(to: path("switchNode1", "node1"))
        guard case .failure(let failure) = result else {
            Issue.record("the route succeeded on a tree its plan no longer fits: \(result)")
            return
        }
        #expect(failure.kind == .invalid)
        #expect(failure.message.contains("the tree changed while the route ran"))
        #expect(router.activePath.last == "node9")
    }

    /// A route finds each step's handlers by the node's index: the last binding wins, an unbound
    /// node has none, and a binding of an id the graph does not declare is never called.
    @Test func aRouteFindsTheHandlersBoundLastToEachNode() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        let seen = Locked<[String]>([])
        func handlers(_ name: String) -> NodeHandlers {
            NodeHandlers(enter: { entry, _ in seen.withLock { $0.append("\(name) \(entry)") } })
        }
        router.bind(handlers("first"), to: "node5")
        router.bind(handlers("second"), to: "node5")
        router.bind(handlers("unbound"), to: "node8")
        router.unbind("node8")
        router.bind(handlers("undeclared"), to: "nowhere")
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        #expect(seen.value == ["second node5"])
        router.bind(handlers("again"), to: "node8")
        _ = await router.route(to: path("switchNode1", "node1", "node5"))
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        #expect(seen.value == ["second node5", "again node8"])
    }

    /// A plan asks `canLeave` only while some node has one bound: replacing the only one with
    /// handlers without it lets the route leave.
    @Test func canLeaveIsAskedWhileOneIsBound() async throws {
        let router = Router(graph: try PortusTree.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        _ = await router.route(to: path("switchNode1", "node1", "node5", "node8"))
        router.bind(NodeHandlers(canLeave: { _ in false }), to: "node8")
        let blocked = await router.route(to: path("switchNode1", "node1"))
        #expect(blocked.failure?.kind == .blocked)
        router.bind(NodeHandlers(), to: "node8")
        let left = await router.route(to: path("switchNode1", "node1"))
        #expect(left.success == [.leave("node8"), .leave("node5")])
    }
}
