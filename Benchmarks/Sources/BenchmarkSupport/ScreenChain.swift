import Portolan

/// A chain of screens `s0 > s1 > … > s(depth-1)`: the deepest path a graph of that size can have,
/// so what grows with depth shows plainly.
public enum ScreenChain {
    public static func graph(depth: Int) throws -> NavigationGraph {
        var spec = NodeSpec.screen("s\(depth - 1)")
        for index in stride(from: depth - 2, through: 0, by: -1) {
            spec = .screen("s\(index)", [spec])
        }
        return try NavigationGraph(root: spec)
    }

    public static func path(depth: Int) -> [Entry] {
        (0..<depth).map { Entry("s\($0)") }
    }
}

public enum BenchmarkError: Error, CustomStringConvertible {
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let message): return message
        }
    }
}

extension RoutingTree {
    /// Plans and applies a route, as the router does when every handler succeeds.
    public mutating func route(to destination: Destination) throws {
        for instruction in try Planner.plan(from: self, to: destination) {
            try apply(instruction)
        }
    }
}
