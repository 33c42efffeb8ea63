import Portolan

/// Portus's example tree (the same as Tests/PortolanTests/Fixtures.swift).
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
}
