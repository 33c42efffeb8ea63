import Portolan
import TestSupport

/// The example tree of Portus's README, drawn there as a picture.
enum PortusTree {
    static let root = NodeSpec.switch("switchNode1", active: "node1", [
        .switch("switchNode2", active: "node3", [.screen("node3"), .screen("node4")]),
        .screen("node1", [
            .screen("node5", [.screen("node8"), .screen("node9"), .screen("node10")]),
            .screen("node6", [.screen("node11")]),
        ]),
        .screen("node2", [
            .screen("node7"),
            .switch("switchNode3", active: "node13", [.screen("node12"), .screen("node13")]),
        ]),
    ])

    static func graph(anywhere: [NodeSpec] = []) throws -> NavigationGraph {
        try NavigationGraph(root: root, anywhere: anywhere)
    }

    static func tree(anywhere: [NodeSpec] = []) throws -> RoutingTree {
        RoutingTree(graph: try graph(anywhere: anywhere))
    }

    /// Destinations over the tree, with the screen `alert` declared anywhere, that together
    /// enter, leave and switch everywhere, park and bring back kept stacks, and push a screen from
    /// anywhere: routed between in every order, they exercise every kind of step.
    static let tour: [Destination] = [
        path("switchNode1", "node1", "node5", "node8"), path("switchNode1", "node2", "switchNode3", "node12"),
        path("switchNode1", "node1", "node6", "node11"), path("switchNode1", "switchNode2", "node4"),
        path("switchNode1", "node2", "node7"), path("switchNode1", "node1"),
        path("switchNode1", "node2", "switchNode3", "node13"), path("switchNode1", "switchNode2", "node3"),
        path("switchNode1", "node1", "node5", "node8", "alert"),
    ]
}

/// A path destination from ids.
func path(_ ids: NodeID...) -> Destination {
    .path(ids.map { Entry($0) })
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// Applies a plan to a tree, as the router does when every handler succeeds.
func planAndApply(_ tree: inout RoutingTree, to destination: Destination) throws -> [Instruction] {
    let plan = try Planner.plan(from: tree, to: destination)
    for instruction in plan {
        try tree.apply(instruction)
    }
    return plan
}

