/// The active path as it will be after the instructions planned so far.
///
/// The planner changes only this path, never the tree. It reads the tree's own path array and
/// records what the plan does to it as a prefix of the tree's nodes that is still there (`kept`)
/// plus the nodes the plan puts below them (`added`): leaving shortens the prefix, entering
/// appends. So planning copies nothing of the tree and costs O(1) per instruction, and switching
/// to a child reads the subtree the switch node keeps for it, exactly as `RoutingTree.apply` would.
struct SimulatedPath {
    private let tree: RoutingTree
    /// How many nodes of the tree's active path, from the root, are still on the path.
    private var kept: Int
    /// The nodes below those, as values (entered fresh, or brought back by a switch).
    private var added: [LiveNode] = []
    /// Kept nodes the plan gives another context (a switch to the child already shown).
    private var renamed: [(depth: Int, entry: Entry)] = []

    init(_ tree: RoutingTree) {
        self.tree = tree
        kept = tree.path.count
    }

    var count: Int { kept + added.count }

    func entry(at depth: Int) -> Entry {
        guard depth < kept else { return added[depth - kept].entry }
        if !renamed.isEmpty, let rename = renamed.last(where: { $0.depth == depth }) {
            return rename.entry
        }
        return tree.activePath[depth]
    }

    func isManaged(at depth: Int) -> Bool {
        depth < kept ? tree.path[depth].isManaged : added[depth - kept].isManaged
    }

    /// Removes the nodes from `depth` down.
    mutating func truncate(to depth: Int) {
        if depth <= kept {
            kept = depth
            added.removeAll(keepingCapacity: true)
            renamed.removeAll { $0.depth >= depth }
        } else {
            added.removeSubrange((depth - kept)...)
        }
    }

    /// Makes `target` (the node `targetIndex`) the active child of the switch node at `depth`,
    /// continuing the path with whatever is active inside that child.
    mutating func switchChild(atDepth depth: Int, to target: Entry, index targetIndex: Int) {
        if depth + 1 < count, entry(at: depth + 1).id == target.id {
            // The child already shown, with another context: the path below it is current (the
            // planner has just left what had to go), while the switch's snapshot of it is not.
            setEntry(at: depth + 1, to: target)
            return
        }
        var child = keptChild(ofSwitchAt: depth, index: targetIndex)
            ?? LiveNode.fresh(target, index: targetIndex, isManaged: true, in: tree.graph)
        child.entry = target
        truncate(to: depth + 1)
        append(chainOf: child)
    }

    /// The depth of the node a dynamic destination is compared with: the leaf, or, when the leaf
    /// is managed, the node whose switch children it belongs to (an entered anywhere switch).
    var topUnmanagedDepth: Int {
        var depth = count - 1
        while depth > 0, isManaged(at: depth) {
            depth -= 1
        }
        return depth
    }

    /// Enters `entry` (the node `index`) on top of the leaf, with the initial children it comes with.
    mutating func enter(_ entry: Entry, index: Int) {
        append(chainOf: LiveNode.fresh(entry, index: index, isManaged: false, in: tree.graph))
    }

    // MARK: Helpers

    /// What the switch node at `depth` holds for its child `index`, as it would come back.
    private func keptChild(ofSwitchAt depth: Int, index: Int) -> LiveNode? {
        let position = tree.graph[index: index].position
        if depth < kept {
            guard let parked = tree.path[depth].switchState?.parked, parked.indices.contains(position) else { return nil }
            return parked[position]
        }
        let children = added[depth - kept].children
        return children.indices.contains(position) ? children[position] : nil
    }

    private mutating func append(chainOf node: LiveNode) {
        var current = node
        added.append(current)
        while let child = current.activeChild {
            added.append(child)
            current = child
        }
    }

    /// Gives the node at `depth` another entry.
    private mutating func setEntry(at depth: Int, to entry: Entry) {
        if depth >= kept {
            added[depth - kept].entry = entry
        } else {
            renamed.append((depth, entry))
        }
    }
}
