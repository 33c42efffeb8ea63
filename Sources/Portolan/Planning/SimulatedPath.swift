/// The active path as it will be after the instructions planned so far.
///
/// The planner changes only this path, never the tree. It reads the tree's own path arrays and
/// records what the plan does to them: a prefix of the tree's nodes that is still there (`kept`)
/// and the nodes the plan puts below it (`added`). Leaving shortens one or the other, entering
/// appends. An added node names where its entry comes from — the destination, or a value the
/// switch node kept for it — instead of holding a copy, so planning copies nothing of the tree
/// and costs O(1) per instruction; switching to a child reads the subtree its switch node keeps
/// for it, exactly as `RoutingTree.apply` will. The graph is passed to the calls that need it
/// rather than stored, for the same reason.
struct SimulatedPath {
    /// The tree's active path, as arrays: copying these is a retain each, where copying the tree
    /// would be a dozen (its graph's tables) and as many releases.
    private let activePath: [Entry]
    private let nodeIndices: [Int]
    private let switches: [SwitchState]
    /// The graph's nodes by index, for whether a node is managed.
    private let table: [IndexedNode]
    /// The entries the plan enters or switches to: the path destination, or the anywhere entry.
    private let destination: [Entry]
    /// How many nodes of the tree's active path, from the root, are still on the path.
    private var kept: Int
    private var added: [AddedNode] = []
    /// Values that added nodes come from: children brought back by a switch and the chains below
    /// them, and the initial children of switch nodes entered fresh.
    private var values: [LiveNode] = []
    /// Nodes the plan gives another context (a switch to the child already shown, an update), by
    /// depth, as indices into `destination`.
    private var renamed: [(depth: Int, entry: Int)] = []

    init(_ tree: borrowing RoutingTree, destination: [Entry]) {
        activePath = tree.activePath
        nodeIndices = tree.nodeIndices
        switches = tree.switches
        table = tree.graph.table
        self.destination = destination
        kept = tree.activePath.count
        // Most added nodes are entered from the destination below its root: one allocation, not
        // one per doubling (and none for a route back to the root).
        if destination.count > 1 {
            added.reserveCapacity(destination.count - 1)
        }
    }

    var count: Int { kept + added.count }

    func entry(at depth: Int) -> Entry {
        if !renamed.isEmpty, let rename = renamed.last(where: { $0.depth == depth }) {
            return destination[rename.entry]
        }
        guard depth >= kept else { return activePath[depth] }
        switch added[depth - kept].origin {
        case .destination(let index):
            return destination[index]
        case .value(let index):
            return values[index].entry
        }
    }

    /// The destination's entry `index`.
    func destinationEntry(_ index: Int) -> Entry {
        destination[index]
    }

    /// Gives the node at `depth` the destination's entry `index`, as an update does: same node.
    mutating func rename(atDepth depth: Int, to index: Int) {
        renamed.append((depth, index))
    }

    /// Whether an entry equal to `entry` stands below `depth`.
    func holds(_ entry: Entry, below depth: Int) -> Bool {
        (depth + 1..<count).contains { self.entry(at: $0) == entry }
    }

    /// The graph index of the node at `depth` (a rename keeps the node, only its entry changes).
    func nodeIndex(at depth: Int) -> Int {
        depth < kept ? nodeIndices[depth] : added[depth - kept].nodeIndex
    }

    func isManaged(at depth: Int) -> Bool {
        guard depth < kept else { return added[depth - kept].isManaged }
        return depth > 0 && table[nodeIndices[depth - 1]].kind == .switch
    }

    /// Removes the nodes from `depth` down.
    mutating func truncate(to depth: Int) {
        if depth <= kept {
            kept = depth
            added.removeAll(keepingCapacity: true)
        } else {
            added.removeSubrange((depth - kept)...)
        }
        if !renamed.isEmpty {
            renamed.removeAll { $0.depth >= depth }
        }
    }

    /// Makes `destination[target]` (the node `targetIndex`) the active child of the switch node at
    /// `depth`, continuing the path with whatever is active inside that child.
    mutating func switchChild(atDepth depth: Int, to target: Int, index targetIndex: Int, in graph: NavigationGraph) {
        let entry = destination[target]
        if depth + 1 < count, self.entry(at: depth + 1).id == entry.id {
            // The child already shown, with another context: the path below it is current (the
            // planner has just left what had to go), while the switch's snapshot of it is not.
            rename(atDepth: depth + 1, to: target)
            return
        }
        var child = keptChild(ofSwitchAt: depth, position: graph[index: targetIndex].position)
            ?? LiveNode.fresh(entry, index: targetIndex, isManaged: true, in: graph)
        child.entry = entry
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

    /// Enters `destination[entry]` (the node `index`) on top of the leaf, with the initial
    /// children it comes with.
    mutating func enter(_ entry: Int, index: Int, in graph: NavigationGraph) {
        added.append(AddedNode(origin: .destination(entry), isManaged: false, nodeIndex: index))
        if graph[index: index].kind == .switch {
            let fresh = LiveNode.fresh(destination[entry], index: index, isManaged: false, in: graph)
            if let child = fresh.activeChild {
                append(chainOf: child)
            }
        }
    }

    // MARK: Helpers

    /// What the switch node at `depth` holds for its child at `position`, as it would come back;
    /// nil for a switch node entered by this plan, whose children are fresh.
    private func keptChild(ofSwitchAt depth: Int, position: Int) -> LiveNode? {
        if depth < kept {
            guard let slot = switches.lastIndex(where: { $0.depth == depth }),
                switches[slot].parked.indices.contains(position)
            else { return nil }
            return switches[slot].parked[position]
        }
        guard case .value(let value) = added[depth - kept].origin else { return nil }
        let children = values[value].children
        return children.indices.contains(position) ? children[position] : nil
    }

    private mutating func append(chainOf node: LiveNode) {
        var current: LiveNode? = node
        while let value = current {
            added.append(AddedNode(origin: .value(values.count), isManaged: value.isManaged, nodeIndex: value.nodeIndex))
            values.append(value)
            current = value.activeChild
        }
    }
}

/// A node the plan put on the path, and where its entry and children come from.
private struct AddedNode {
    enum Origin {
        /// Entered from the destination, fresh.
        case destination(Int)
        /// A value in `SimulatedPath.values`.
        case value(Int)
    }

    var origin: Origin
    let isManaged: Bool
    /// The node's graph index.
    let nodeIndex: Int
}
