/// The live routing tree: the nodes that exist now, and the active path through them.
///
/// Every change goes through `apply(_:)`, which validates it against the graph, so the router's
/// instructions and the host's own reports (`didEnter`, `didLeave`, `didSwitch`) keep the same
/// invariants: screens hold at most one child, switch nodes hold their declared children with
/// exactly one active, and every parent–child pair is allowed by the graph.
///
/// The active path is stored as arrays from the root to the leaf, and what hangs off it (the
/// children a switch node keeps while another one is active) in a stack of its switch nodes. A
/// route only ever changes the leaf end, so entering, leaving and switching there cost O(1)
/// amortized, whatever the depth: nothing walks from the root, nothing above the change is copied.
public struct RoutingTree: Sendable, Equatable {
    public let graph: NavigationGraph
    /// The entries from the root to the active leaf; every route starts here.
    public internal(set) var activePath: [Entry] = []
    /// The graph index of each node of the active path, depth for depth.
    var nodeIndices: [Int] = []
    /// The switch nodes of the active path, shallowest first. All three arrays are changed only by
    /// this type (`TreeSnapshot.swift` included), always together.
    var switches: [SwitchState] = []
    /// The state's generation (`TreeGeneration`): every change gives the tree a new one, so that a
    /// plan's steps can tell whether the tree is still the one they were planned on.
    var generation = TreeGeneration.next()

    /// A tree in its initial state: the root, and below it the initial children of switch nodes.
    public init(graph: NavigationGraph) {
        self.graph = graph
        // The root is index 0: it is declared first.
        appendChain(of: LiveNode.fresh(Entry(graph.rootID), index: 0, isManaged: false, in: graph))
    }

    /// A tree with the given nodes, which `SnapshotResolution` has made valid for `graph`.
    init(graph: NavigationGraph, root: LiveNode) {
        self.graph = graph
        appendChain(of: root)
    }

    /// Equal when the graphs and the live nodes are: the generation says how the tree got there.
    public static func == (lhs: RoutingTree, rhs: RoutingTree) -> Bool {
        lhs.activePath == rhs.activePath && lhs.nodeIndices == rhs.nodeIndices && lhs.switches == rhs.switches
            && lhs.graph == rhs.graph
    }

    /// How many nodes the active path has (at least one: the root).
    public var depth: Int { activePath.count }

    /// The deepest node of the active path.
    public var leaf: Entry { activePath[activePath.count - 1] }

    /// Applies one instruction, or throws and changes nothing.
    ///
    /// The instruction is taken, not borrowed, so that an entered entry moves into the path
    /// instead of being copied (callers write the same code either way).
    public mutating func apply(_ instruction: consuming Instruction) throws(TreeUpdateError) {
        switch consume instruction {
        case .enter(let entry):
            try enter(entry)
        case .leave(let entry):
            try leave(entry)
        case .switch(let switchNode, let target):
            try switchTo(target, in: switchNode)
        case .update(let entry, let updated):
            try update(entry, to: updated)
        case .remove(let entry):
            try remove(entry)
        case .insert(let entry, let upper):
            try insert(entry, under: upper)
        case .move(let entry, let upper):
            try move(entry, under: upper)
        }
        generation = TreeGeneration.next()
    }

    // MARK: Changes

    private mutating func enter(_ entry: consuming Entry) throws(TreeUpdateError) {
        guard entry.isWellFormed else { throw .malformedEntry(entry) }
        // The node is found among the leaf's declared children by comparing ids, without hashing.
        guard let index = graph.index(of: entry.id, below: nodeIndices[nodeIndices.count - 1]) else {
            throw .unknownNode(entry.id)
        }
        try enter(entry, index: index)
    }

    /// Enters `entry`, the node `index`, on top of the leaf, once the limits and the graph allow it.
    mutating func enter(_ entry: consuming Entry, index: Int) throws(TreeUpdateError) {
        let leaf = nodeIndices[nodeIndices.count - 1]
        // Anywhere and pushed nodes can pile up on each other without end; bounds keep every path finite.
        guard nodeIndices.count + graph[index: index].freshDepth <= graph.limits.maxDepth else {
            throw .tooDeep(limit: graph.limits.maxDepth)
        }
        if graph[index: index].canRepeat, graph.limits.countsCopies, copies(of: index) >= graph.limits.maxCopies {
            throw .tooManyCopies(entry.id, limit: graph.limits.maxCopies)
        }
        guard graph[index: leaf].kind == .screen, graph.allows(index, below: leaf) else {
            throw .cannotEnter(entry.id, onTopOf: activePath[activePath.count - 1].id)
        }
        if graph[index: index].kind == .screen {
            // The common case, without building a snapshot first.
            activePath.append(entry)
            nodeIndices.append(index)
        } else {
            appendChain(of: LiveNode.fresh(entry, index: index, isManaged: false, in: graph))
        }
    }

    /// Removes the deepest node of the active path equal to `entry`, with everything below it.
    private mutating func leave(_ entry: Entry) throws(TreeUpdateError) {
        // Searched from the leaf: a planned leave is always of the leaf, so this stops at once.
        var depth = activePath.count - 1
        while depth > 0 {
            if activePath[depth] == entry {
                guard !isManaged(atDepth: depth) else { throw .managedByParent(entry) }
                truncate(to: depth)
                return
            }
            depth -= 1
        }
        throw activePath[0] == entry ? .cannotLeaveRoot : .notOnActivePath(entry)
    }

    /// Gives the deepest node of the active path equal to `entry` the context of `updated`, in
    /// place: what stands above and below it stays, and so does a switch node's state. (The
    /// planner updates no entry that has an equal copy deeper, so the deepest is the one it means.)
    private mutating func update(_ entry: Entry, to updated: Entry) throws(TreeUpdateError) {
        guard updated.isWellFormed else { throw .malformedEntry(updated) }
        guard updated.id == entry.id else { throw .updateChangesNode(entry, to: updated.id) }
        guard let depth = activePath.lastIndex(of: entry) else { throw .notOnActivePath(entry) }
        guard depth > 0 else { throw .cannotUpdateRoot }
        activePath[depth] = updated
    }

    /// Makes `target` the active child of the deepest switch node of the active path equal to
    /// `switchNode`. The child comes back with whatever was open inside it when it was left.
    private mutating func switchTo(_ target: Entry, in switchNode: Entry) throws(TreeUpdateError) {
        guard target.isWellFormed else { throw .malformedEntry(target) }
        guard let slot = deepestSwitch(where: { activePath[$0] == switchNode }) else {
            throw .notASwitch(switchNode.id)
        }
        guard let child = graph.index(of: target.id, below: nodeIndices[switches[slot].depth]) else {
            throw .notAChild(target.id, ofSwitch: switchNode.id)
        }
        try switchTo(target, child: child, slot: slot, in: switchNode)
    }

    /// Makes `target`, the node `child`, the active child of the switch node in `switches[slot]`,
    /// once the graph declares it that node's child.
    mutating func switchTo(_ target: Entry, child: Int, slot: Int, in switchNode: Entry) throws(TreeUpdateError) {
        var state = switches[slot]
        let depth = state.depth
        guard graph[index: child].parent == nodeIndices[depth] else {
            throw .notAChild(target.id, ofSwitch: switchNode.id)
        }
        let position = graph[index: child].position
        if position == state.active {
            // The child already shown, with another context: what is open inside it stays.
            activePath[depth + 1] = target
            return
        }
        var incoming = state.parked[position]
            ?? LiveNode.fresh(target, index: child, isManaged: true, in: graph)
        // Equal, the kept child keeps what it remembers (`Entry.earlierContexts`).
        if incoming.entry != target { incoming.entry = target }
        // Emptied in the stack while it changes, so that `state` holds the only reference to the
        // kept children and they change in place.
        switches[slot].parked = []
        state.parked[state.active] = snapshot(from: depth + 1)
        state.parked[position] = nil
        state.active = position
        truncate(to: depth + 1)
        switches[slot] = state
        appendChain(of: incoming)
    }

    /// How many copies of the node `index` the active path holds.
    func copies(of index: Int) -> Int {
        var count = 0
        for depth in nodeIndices.indices where nodeIndices[depth] == index {
            count += 1
        }
        return count
    }

    /// Where in `switches` the deepest switch node of the active path whose depth `matches` is.
    func deepestSwitch(where matches: (Int) -> Bool) -> Int? {
        var slot = switches.count - 1
        while slot >= 0 {
            if matches(switches[slot].depth) { return slot }
            slot -= 1
        }
        return nil
    }

    /// Whether the node at `depth` is managed: its parent is a switch node (whose children are
    /// all managed; nothing else can be entered on top of one).
    @inline(__always)
    func isManaged(atDepth depth: Int) -> Bool {
        depth > 0 && graph[index: nodeIndices[depth - 1]].kind == .switch
    }

    /// Removes the nodes from `depth` down.
    mutating func truncate(to depth: Int) {
        if depth == activePath.count - 1 {
            // A planned leave: the leaf alone, without the general range removal.
            activePath.removeLast()
            nodeIndices.removeLast()
        } else {
            activePath.removeSubrange(depth...)
            nodeIndices.removeSubrange(depth...)
        }
        while !switches.isEmpty, switches[switches.count - 1].depth >= depth {
            switches.removeLast()
        }
    }
}
