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

    /// What carrying this tree to other rules (`carried`, a reload's) takes away from the active
    /// path, as instructions: the unmanaged nodes past the part it kept (`keptDepth`), left
    /// bottom-up by the rules that entered them.
    public func departures(to carried: RoutingTree, renamed: [NodeID: NodeID] = [:]) -> [Instruction] {
        let depth = keptDepth(in: carried, renamed: renamed)
        return activeNodes[depth...].reversed().filter { !$0.isManaged }.map { .leave($0.entry) }
    }

    /// What carrying this tree to other rules (`carried`) brings onto the active path, as the new
    /// rules' instructions: the switch to the child that replaced an active one the rules no
    /// longer have, then, top-down, each screen past the part kept that had left the active path
    /// (`departures`) and stands on it again (a migration moved it there). A kept stack's screens
    /// that the switch shows were never left, so they are not entered, as a route's switch does
    /// not enter them. The carried tree holds them already: only their handlers are left to run
    /// (`Router.enterCarried`).
    public func arrivals(to carried: RoutingTree, renamed: [NodeID: NodeID] = [:]) -> [Instruction] {
        let old = activeNodes, new = carried.activeNodes
        let depth = keptDepth(in: carried, renamed: renamed)
        guard depth < new.count else { return [] }
        var instructions: [Instruction] = []
        if depth > 0, new[depth].isManaged {
            instructions.append(.switch(new[depth - 1].entry, to: new[depth].entry))
        }
        var departed: [NodeID: Int] = [:]
        for node in old.dropFirst(depth) where !node.isManaged { departed[renamed[node.entry.id] ?? node.entry.id, default: 0] += 1 }
        for node in new[depth...] where !node.isManaged && departed[node.entry.id, default: 0] > 0 {
            departed[node.entry.id, default: 0] -= 1
            instructions.append(.enter(node.entry))
        }
        return instructions
    }

    /// The screens of this tree's kept stacks (what the switches on the active path keep while
    /// another child is active, with everything below it) that carrying the tree to `carried`
    /// takes away, as `leave` instructions, each stack bottom-up. A screen counts by its name
    /// after `renamed`, as many times as the carried tree still holds it, the active path's
    /// first: a context a migration changed is the same screen, a moved one stays, and of copies
    /// cut by a lowered limit the deepest go, as the carrier cuts them.
    public func keptDepartures(to carried: RoutingTree, renamed: [NodeID: NodeID] = [:]) -> [Instruction] {
        func name(_ node: LiveNode) -> NodeID { renamed[node.entry.id] ?? node.entry.id }
        var remaining: [NodeID: Int] = [:]
        for node in carried.root.topDown where !node.isManaged { remaining[node.entry.id, default: 0] += 1 }
        let active = activeNodes
        for node in active where !node.isManaged { remaining[name(node), default: 0] -= 1 }
        var gone: [Instruction] = []
        for node in active where node.kind == .switch {
            for (position, stack) in node.children.enumerated() where position != node.activeIndex {
                for kept in stack.topDown where !kept.isManaged {
                    if remaining[name(kept), default: 0] > 0 {
                        remaining[name(kept), default: 0] -= 1
                    } else {
                        gone.append(.leave(kept.entry))
                    }
                }
            }
        }
        return gone.reversed()
    }

    /// Where this tree's active path goes once the screens carrying it to `carried` takes away
    /// have left: its prefix down to the shallowest unmanaged node past the kept part (a route
    /// there leaves exactly `departures`' leaves); nil when none leaves.
    public func departure(to carried: RoutingTree, renamed: [NodeID: NodeID] = [:]) -> Destination? {
        // The root stays whatever the rules: a route never leaves it.
        var depth = max(1, keptDepth(in: carried, renamed: renamed))
        while depth < activePath.count, isManaged(atDepth: depth) { depth += 1 }
        return depth < activePath.count ? .path(Array(activePath[..<depth])) : nil
    }

    /// How many nodes from the root the carried active path keeps of this one: the same entries,
    /// or the same screens under the names `renamed` gave them. A screen that moved is past it.
    func keptDepth(in carried: RoutingTree, renamed: [NodeID: NodeID]) -> Int {
        let old = activePath, new = carried.activePath
        var depth = 0
        while depth < old.count, depth < new.count,
            old[depth] == new[depth] || (renamed[old[depth].id] == new[depth].id && old[depth].context == new[depth].context)
        {
            depth += 1
        }
        return depth
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
