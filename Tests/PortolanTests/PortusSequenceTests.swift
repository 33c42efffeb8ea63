import Portolan
import TestSupport
import Testing

/// The Portus README's worked examples, in order, from the tree's initial state.
@Suite struct PortusSequenceTests {
    static let steps: [(destination: Destination, expected: [String])] = [
        (path("switchNode1", "node2", "switchNode3", "node12"),
         ["switch switchNode1 -> node2", "enter switchNode3", "switch switchNode3 -> node12"]),
        (path("switchNode1", "node1", "node5", "node8"),
         ["leave switchNode3", "switch switchNode1 -> node1", "enter node5", "enter node8"]),
        (path("switchNode1", "switchNode2", "node4"),
         ["leave node8", "leave node5", "switch switchNode1 -> switchNode2", "switch switchNode2 -> node4"]),
        (path("switchNode1", "node1", "node6", "node11"),
         ["switch switchNode1 -> node1", "enter node6", "enter node11"]),
        (path("switchNode1", "node2", "switchNode3", "node13"),
         ["leave node11", "leave node6", "switch switchNode1 -> node2", "enter switchNode3"]),
    ]

    @Test func initialActivePathFollowsTheDeclaredActiveChildren() throws {
        let tree = try PortusTree.tree()
        #expect(tree.activePath == ["switchNode1", "node1"])
    }

    @Test func plannerGivesTheReadmeInstructionsExactly() throws {
        var tree = try PortusTree.tree()
        for step in Self.steps {
            let executed = try planAndApply(&tree, to: step.destination)
            #expect(texts(executed) == step.expected)
            guard case .path(let entries) = step.destination else { continue }
            #expect(tree.activePath == entries)
        }
    }

    @Test func routerExecutesTheReadmeInstructionsExactly() async throws {
        let router = Router(graph: try PortusTree.graph())
        for step in Self.steps {
            let planned = await router.plan(to: step.destination)
            let result = await router.route(to: step.destination)
            #expect(texts(try result.get()) == step.expected)
            #expect(planned.result == result, "plan must be exactly what route executes")
        }
        #expect(await router.activePath == ["switchNode1", "node2", "switchNode3", "node13"])
    }
}
