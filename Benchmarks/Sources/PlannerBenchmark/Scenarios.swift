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

/// A chain of screens `s0 > s1 > … > s(depth-1)`.
enum ScreenChain {
    static func graph(depth: Int) throws -> NavigationGraph {
        var spec = NodeSpec.screen("s\(depth - 1)")
        for index in stride(from: depth - 2, through: 0, by: -1) {
            spec = .screen("s\(index)", [spec])
        }
        return try NavigationGraph(root: spec)
    }

    static func path(depth: Int) -> [Entry] {
        (0..<depth).map { Entry("s\($0)") }
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case setup(String)

    var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}

extension RoutingTree {
    /// Plans and applies a route, as the router does when every handler succeeds.
    mutating func route(to destination: Destination) throws {
        for instruction in try Planner.plan(from: self, to: destination) {
            try apply(instruction)
        }
    }
}
