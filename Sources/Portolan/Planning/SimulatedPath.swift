/// The active path as it will be after the instructions planned so far.
///
/// The planner changes only this path, never the tree. Nodes come from the tree as value
/// snapshots, so switching to a child reads the subtree it already has, and entering a node
/// appends a fresh one, exactly as `RoutingTree.apply` would.
struct SimulatedPath {
    private(set) var nodes: [LiveNode]
    private let graph: NavigationGraph

    init(_ tree: RoutingTree) {
        nodes = tree.activeNodes
        graph = tree.graph
    }

    var count: Int { nodes.count }

    subscript(index: Int) -> LiveNode { nodes[index] }

    /// Removes the nodes from `depth` down.
    mutating func truncate(to depth: Int) {
        nodes.removeSubrange(depth...)
    }

    /// Makes `target` the active child of the switch node at `depth`, continuing the path with
    /// whatever is active inside that child.
    mutating func switchChild(atDepth depth: Int, to target: Entry) {
        if depth + 1 < nodes.count, nodes[depth + 1].entry.id == target.id {
            // The child already shown, with another context: the path below it is current (the
            // planner has just left what had to go), while the switch's snapshot of it is not.
            nodes[depth + 1].entry = target
            return
        }
        truncate(to: depth + 1)
        guard let index = nodes[depth].children.firstIndex(where: { $0.entry.id == target.id }) else { return }
        var child = nodes[depth].children[index]
        child.entry = target
        nodes.append(contentsOf: child.activeChain)
    }

    /// The depth of the node a dynamic destination is compared with: the leaf, or, when the leaf
    /// is managed, the node whose switch children it belongs to (an entered anywhere switch).
    var topUnmanagedDepth: Int {
        var depth = nodes.count - 1
        while depth > 0, nodes[depth].isManaged {
            depth -= 1
        }
        return depth
    }

    /// Enters `entry` on top of the leaf, with the initial children it comes with.
    mutating func enter(_ entry: Entry) {
        nodes.append(contentsOf: LiveNode.fresh(entry, isManaged: false, in: graph).activeChain)
    }
}
