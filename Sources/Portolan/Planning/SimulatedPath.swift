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
        truncate(to: depth + 1)
        guard let index = nodes[depth].children.firstIndex(where: { $0.entry.id == target.id }) else { return }
        var child = nodes[depth].children[index]
        child.entry = target
        nodes.append(contentsOf: child.activeChain)
    }

    /// Enters `entry` on top of the leaf, with the initial children it comes with.
    mutating func enter(_ entry: Entry) {
        nodes.append(contentsOf: LiveNode.fresh(entry, isManaged: false, in: graph).activeChain)
    }
}
