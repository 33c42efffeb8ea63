/// The live routing tree: the nodes that exist now, and the active path through them.
///
/// Every change goes through `apply(_:)`, which validates it against the graph, so the router's
/// instructions and the host's own reports (`didEnter`, `didLeave`, `didSwitch`) keep the same
/// invariants: screens hold at most one child, switch nodes hold their declared children with
/// exactly one active, and every parent–child pair is allowed by the graph.
public struct RoutingTree: Sendable, Equatable {
    public let graph: NavigationGraph
    public private(set) var root: LiveNode

    /// A tree in its initial state: the root, and below it the initial children of switch nodes.
    public init(graph: NavigationGraph) {
        self.graph = graph
        self.root = LiveNode.fresh(Entry(graph.rootID), isManaged: false, in: graph)
    }

    /// A tree with the given nodes, which `TreeMigration` has made valid for `graph`.
    init(graph: NavigationGraph, root: LiveNode) {
        self.graph = graph
        self.root = root
    }

    /// The entries from the root to the active leaf; every route starts here.
    public var activePath: [Entry] {
        activeNodes.map(\.entry)
    }

    /// The nodes from the root to the active leaf.
    public var activeNodes: [LiveNode] {
        root.activeChain
    }

    /// Applies one instruction, or throws and changes nothing.
    public mutating func apply(_ instruction: Instruction) throws(TreeUpdateError) {
        switch instruction {
        case .enter(let entry):
            try enter(entry)
        case .leave(let entry):
            try leave(entry)
        case .switch(let switchNode, let target):
            try switchTo(target, in: switchNode)
        }
    }

    // MARK: Host reports

    /// The host entered a node on top of the active leaf by itself.
    @discardableResult
    public mutating func didEnter(_ entry: Entry) throws(TreeUpdateError) -> Instruction {
        let instruction = Instruction.enter(entry)
        try apply(instruction)
        return instruction
    }

    /// The host left the deepest active node with this id by itself (a back swipe, a dismissed modal).
    @discardableResult
    public mutating func didLeave(_ id: NodeID) throws(TreeUpdateError) -> Instruction {
        guard let node = activeNodes.last(where: { $0.entry.id == id }) else {
            throw .notOnActivePath(Entry(id))
        }
        let instruction = Instruction.leave(node.entry)
        try apply(instruction)
        return instruction
    }

    /// The host made `child` the active child of a switch node on the active path (a tab tap).
    /// The child keeps its context and whatever was open inside it.
    @discardableResult
    public mutating func didSwitch(_ switchID: NodeID, to child: NodeID) throws(TreeUpdateError) -> Instruction {
        guard let switchNode = activeNodes.last(where: { $0.entry.id == switchID && $0.kind == .switch }) else {
            throw .notASwitch(switchID)
        }
        guard let target = switchNode.children.first(where: { $0.entry.id == child }) else {
            throw .notAChild(child, ofSwitch: switchID)
        }
        let instruction = Instruction.switch(switchNode.entry, to: target.entry)
        try apply(instruction)
        return instruction
    }

    // MARK: Changes
    //
    // Each change walks the active path once, in place: no node is copied on the way down, so a
    // change costs O(depth) pointer steps however large the nodes' subtrees are.

    private mutating func enter(_ entry: Entry) throws(TreeUpdateError) {
        guard entry.isWellFormed else { throw .malformedEntry(entry) }
        guard graph[entry.id] != nil else { throw .unknownNode(entry.id) }
        let node = LiveNode.fresh(entry, isManaged: false, in: graph)
        try Self.enter(node, onTopOf: &root, depth: 1, graph: graph)
    }

    private static func enter(
        _ node: LiveNode, onTopOf current: inout LiveNode, depth: Int, graph: NavigationGraph
    ) throws(TreeUpdateError) {
        if let index = current.activeIndex {
            try enter(node, onTopOf: &current.children[index], depth: depth + 1, graph: graph)
            return
        }
        // Anywhere nodes can pile up on each other without end; a bound keeps every walk safe.
        guard depth + node.activeChain.count <= NavigationGraph.maximumDepth else {
            throw .tooDeep(limit: NavigationGraph.maximumDepth)
        }
        guard current.kind == .screen, graph.allows(node.entry.id, below: current.entry.id) else {
            throw .cannotEnter(node.entry.id, onTopOf: current.entry.id)
        }
        current.children = [node]
        current.activeIndex = 0
    }

    private mutating func leave(_ entry: Entry) throws(TreeUpdateError) {
        if try Self.removeDeepestChild(matching: entry, below: &root) { return }
        throw root.entry == entry ? .cannotLeaveRoot : .notOnActivePath(entry)
    }

    /// Removes the deepest active node equal to `entry` below `node`, with its subtree.
    private static func removeDeepestChild(matching entry: Entry, below node: inout LiveNode) throws(TreeUpdateError) -> Bool {
        guard let index = node.activeIndex else { return false }
        if try removeDeepestChild(matching: entry, below: &node.children[index]) { return true }
        guard node.children[index].entry == entry else { return false }
        guard !node.children[index].isManaged else { throw .managedByParent(entry) }
        node.children = []
        node.activeIndex = nil
        return true
    }

    private mutating func switchTo(_ target: Entry, in switchNode: Entry) throws(TreeUpdateError) {
        guard target.isWellFormed else { throw .malformedEntry(target) }
        if try Self.switchDeepest(switchNode, to: target, from: &root) { return }
        throw .notASwitch(switchNode.id)
    }

    /// Switches the deepest active switch node equal to `switchNode`, at or below `node`.
    private static func switchDeepest(_ switchNode: Entry, to target: Entry, from node: inout LiveNode) throws(TreeUpdateError) -> Bool {
        if let index = node.activeIndex, try switchDeepest(switchNode, to: target, from: &node.children[index]) {
            return true
        }
        guard node.kind == .switch, node.entry == switchNode else { return false }
        guard let index = node.children.firstIndex(where: { $0.entry.id == target.id }) else {
            throw .notAChild(target.id, ofSwitch: switchNode.id)
        }
        node.activeIndex = index
        node.children[index].entry = target
        return true
    }
}
