@testable import Portolan
import TestSupport

/// A random, valid graph: a tree of screens and switch nodes under one root, plus up to two nodes
/// reachable from anywhere (which may have children, and may themselves be switch nodes).
struct RandomGraph {
    let graph: NavigationGraph
    /// Every declared id, in declaration order (the graph's own order is a dictionary's).
    let ids: [NodeID]
    /// The depth of the declared tree under the root.
    let depth: Int

    init(seed: UInt64, maxDepth: Int) throws {
        var random = SeededRandom(seed: seed)
        var builder = Builder(maxDepth: maxDepth, budget: 44)
        let root = builder.node("n", depth: 0, &random)
        var anywhere: [NodeSpec] = []
        for _ in 0..<random.below(3) {
            builder.budget = max(builder.budget, 0) + 4
            anywhere.append(builder.node("a", depth: max(maxDepth - 2, 0), &random))
        }
        graph = try NavigationGraph(root: root, anywhere: anywhere)
        ids = builder.ids
        depth = Self.depth(of: root)
    }

    private static func depth(of spec: NodeSpec) -> Int {
        spec.children.map { depth(of: $0) + 1 }.max() ?? 0
    }

    private struct Builder {
        let maxDepth: Int
        var budget: Int
        var ids: [NodeID] = []

        mutating func node(_ prefix: String, depth: Int, _ random: inout SeededRandom) -> NodeSpec {
            let id = "\(prefix)\(ids.count)"
            ids.append(id)
            budget -= 1
            let mayHaveChildren = depth < maxDepth && budget > 0
            // The first branch goes deepest, so every graph reaches close to `maxDepth`.
            if mayHaveChildren, random.chance(0.3) {
                var children: [NodeSpec] = []
                for _ in 0..<(1 + random.below(3)) where budget > 0 || children.isEmpty {
                    children.append(node(prefix, depth: depth + 1, &random))
                }
                let active = random.chance(0.5) ? random.pick(children)?.id : nil
                return .switch(id, active: active, children)
            }
            var children: [NodeSpec] = []
            if mayHaveChildren {
                let count = random.chance(0.2) ? 0 : 1 + random.below(3)
                for _ in 0..<count where budget > 0 {
                    children.append(node(prefix, depth: depth + 1, &random))
                }
            }
            return .screen(id, children)
        }
    }
}
