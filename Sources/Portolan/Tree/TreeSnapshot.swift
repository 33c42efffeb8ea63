/// Conversions between the tree's array path and `LiveNode` values.
///
/// Renderers, migrations and tests read the tree as nested values; switch nodes keep the children
/// they are not showing as such values. Neither is on a route's path: reading `root` or
/// `activeNodes` costs O(depth) plus the kept children, shared, not copied.
extension RoutingTree {
    /// The whole live tree as a value, from the root.
    public var root: LiveNode {
        snapshot(from: 0)
    }

    /// The nodes from the root to the active leaf, each with what is below it.
    public var activeNodes: [LiveNode] {
        var nodes: [LiveNode] = []
        nodes.reserveCapacity(path.count)
        var below: LiveNode?
        for depth in path.indices.reversed() {
            let node = liveNode(atDepth: depth, above: below)
            nodes.append(node)
            below = node
        }
        return nodes.reversed()
    }

    /// The node at `depth` of the active path as a value, with everything below it.
    func snapshot(from depth: Int) -> LiveNode {
        var below: LiveNode?
        for index in stride(from: path.count - 1, through: depth, by: -1) {
            below = liveNode(atDepth: index, above: below)
        }
        return below ?? LiveNode.fresh(Entry(graph.rootID), index: 0, isManaged: false, in: graph)
    }

    /// The node at `depth` as a value, given its active child's value (nil at the leaf). Each
    /// level only wraps the one below, so building a whole path costs O(depth), not O(depth²).
    private func liveNode(atDepth depth: Int, above child: LiveNode?) -> LiveNode {
        let node = path[depth]
        let entry = activePath[depth]
        guard let child else {
            return LiveNode(
                entry: entry, kind: node.kind, isManaged: node.isManaged, nodeIndex: node.nodeIndex,
                children: [], activeIndex: nil)
        }
        guard let state = node.switchState else {
            return LiveNode(
                entry: entry, kind: .screen, isManaged: node.isManaged, nodeIndex: node.nodeIndex,
                children: [child], activeIndex: 0)
        }
        // Only the active child's slot is empty.
        return LiveNode(
            entry: entry, kind: .switch, isManaged: node.isManaged, nodeIndex: node.nodeIndex,
            children: state.parked.map { $0 ?? child }, activeIndex: state.active)
    }

    /// Puts `node` and its active descendants at the end of the active path; a switch node's other
    /// children are kept with it.
    mutating func appendChain(of node: LiveNode) {
        var current = node
        while true {
            activePath.append(current.entry)
            guard let active = current.activeIndex, current.children.indices.contains(active) else {
                path.append(PathNode(nodeIndex: current.nodeIndex, isManaged: current.isManaged))
                return
            }
            let child = current.children[active]
            var state: SwitchState?
            if current.kind == .switch {
                var parked = current.children.map(Optional.some)
                parked[active] = nil
                state = SwitchState(active: active, parked: parked)
            }
            path.append(PathNode(nodeIndex: current.nodeIndex, isManaged: current.isManaged, switchState: state))
            current = child
        }
    }
}
