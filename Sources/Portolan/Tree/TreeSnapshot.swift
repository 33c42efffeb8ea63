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
        nodes.reserveCapacity(activePath.count)
        forEachNode(from: 0) { nodes.append($0) }
        return nodes.reversed()
    }

    /// The node at `depth` of the active path as a value, with everything below it.
    func snapshot(from depth: Int) -> LiveNode {
        var top: LiveNode?
        forEachNode(from: depth) { top = $0 }
        return top ?? LiveNode.fresh(Entry(graph.rootID), index: 0, isManaged: false, in: graph)
    }

    /// Builds the path's nodes from the leaf up to `depth` as values, handing each to `body`.
    /// Each level only wraps the one below, so a whole path costs O(depth), not O(depth²).
    private func forEachNode(from depth: Int, _ body: (LiveNode) -> Void) {
        var below: LiveNode?
        var slot = switches.count - 1
        for index in stride(from: activePath.count - 1, through: depth, by: -1) {
            var state: SwitchState?
            if slot >= 0, switches[slot].depth == index {
                state = switches[slot]
                slot -= 1
            }
            let node = liveNode(atDepth: index, state: state, above: below)
            body(node)
            below = node
        }
    }

    /// The node at `depth` as a value, given its switch state (nil for a screen) and its active
    /// child's value (nil at the leaf).
    private func liveNode(atDepth depth: Int, state: SwitchState?, above child: LiveNode?) -> LiveNode {
        let entry = activePath[depth]
        let index = nodeIndices[depth]
        let managed = isManaged(atDepth: depth)
        guard let child else {
            return LiveNode(
                entry: entry, kind: .screen, isManaged: managed, nodeIndex: index, children: [], activeIndex: nil)
        }
        guard let state else {
            return LiveNode(
                entry: entry, kind: .screen, isManaged: managed, nodeIndex: index, children: [child], activeIndex: 0)
        }
        // Only the active child's slot is empty.
        return LiveNode(
            entry: entry, kind: .switch, isManaged: managed, nodeIndex: index,
            children: state.parked.map { $0 ?? child }, activeIndex: state.active)
    }

    /// Puts `node` and its active descendants at the end of the active path; a switch node's other
    /// children are kept with it.
    mutating func appendChain(of node: LiveNode) {
        var current = node
        while true {
            activePath.append(current.entry)
            nodeIndices.append(current.nodeIndex)
            guard let active = current.activeIndex, current.children.indices.contains(active) else { return }
            if current.kind == .switch {
                var parked = current.children.map(Optional.some)
                parked[active] = nil
                switches.append(SwitchState(depth: activePath.count - 1, active: active, parked: parked))
            }
            current = current.children[active]
        }
    }
}
