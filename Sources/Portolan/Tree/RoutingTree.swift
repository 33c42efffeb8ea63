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

    private mutating func enter(_ entry: Entry) throws(TreeUpdateError) {
        guard entry.isWellFormed else { throw .malformedEntry(entry) }
        guard graph[entry.id] != nil else { throw .unknownNode(entry.id) }
        let leafDepth = activeDepth
        let leaf = activeLeaf
        guard leaf.kind == .screen, graph.allows(entry.id, below: leaf.entry.id) else {
            throw .cannotEnter(entry.id, onTopOf: leaf.entry.id)
        }
        let node = LiveNode.fresh(entry, isManaged: false, in: graph)
        mutateActiveNode(atDepth: leafDepth) { leaf in
            leaf.children = [node]
            leaf.activeIndex = 0
        }
    }

    private mutating func leave(_ entry: Entry) throws(TreeUpdateError) {
        guard let depth = deepestActiveDepth(where: { $0.entry == entry }) else {
            throw .notOnActivePath(entry)
        }
        guard depth > 0 else { throw .cannotLeaveRoot }
        guard !activeNode(atDepth: depth).isManaged else { throw .managedByParent(entry) }
        mutateActiveNode(atDepth: depth - 1) { parent in
            parent.children = []
            parent.activeIndex = nil
        }
    }

    private mutating func switchTo(_ target: Entry, in switchNode: Entry) throws(TreeUpdateError) {
        guard target.isWellFormed else { throw .malformedEntry(target) }
        guard let depth = deepestActiveDepth(where: { $0.entry == switchNode && $0.kind == .switch }) else {
            throw .notASwitch(switchNode.id)
        }
        guard let index = activeNode(atDepth: depth).children.firstIndex(where: { $0.entry.id == target.id }) else {
            throw .notAChild(target.id, ofSwitch: switchNode.id)
        }
        mutateActiveNode(atDepth: depth) { node in
            node.activeIndex = index
            node.children[index].entry = target
        }
    }

    // MARK: Walking the active path

    private var activeDepth: Int {
        var depth = 0
        var node = root
        while let child = node.activeChild {
            node = child
            depth += 1
        }
        return depth
    }

    private var activeLeaf: LiveNode {
        activeNode(atDepth: activeDepth)
    }

    private func activeNode(atDepth depth: Int) -> LiveNode {
        var node = root
        for _ in 0..<depth {
            guard let child = node.activeChild else { break }
            node = child
        }
        return node
    }

    private func deepestActiveDepth(where matches: (LiveNode) -> Bool) -> Int? {
        activeNodes.lastIndex(where: matches)
    }

    /// Mutates the node at `depth` on the active path in place (no copy of the path above it).
    private mutating func mutateActiveNode(atDepth depth: Int, _ change: (inout LiveNode) -> Void) {
        Self.mutate(&root, depth: depth, change)
    }

    private static func mutate(_ node: inout LiveNode, depth: Int, _ change: (inout LiveNode) -> Void) {
        guard depth > 0, let index = node.activeIndex else {
            change(&node)
            return
        }
        mutate(&node.children[index], depth: depth - 1, change)
    }
}
