/// A saved tree made live under a graph: the conservative rule for what no migration covers.
///
/// Every saved node the graph still has, below a parent that may hold it and of the same kind, is
/// kept with its context; the first one that does not fit is dropped with everything below it and
/// reported, so the active path keeps its longest prefix that still exists. A switch node gets
/// the children the graph declares (new ones fresh, saved ones kept), and keeps its saved active
/// child when it still exists. Past the graph's path limits a chain is cut, and reported.
/// Nothing throws; nothing saved is lost without a `SnapshotChange`.
struct SnapshotResolution {
    let graph: NavigationGraph
    private(set) var changes: [SnapshotChange] = []

    init(graph: NavigationGraph) {
        self.graph = graph
    }

    /// The live root for a saved one. A saved root of another id keeps nothing but is reported.
    mutating func resolve(_ saved: SavedNode) -> LiveNode {
        let fresh = LiveNode.fresh(Entry(graph.rootID), index: 0, isManaged: false, in: graph)
        guard saved.entry.id == graph.rootID else {
            changes.append(.dropped(saved.entry.id, reason: "the rules' root is '\(Excerpt.of(graph.rootID))'"))
            return fresh
        }
        var copies: [Int: Int] = [:]
        return node(saved, index: 0, isManaged: false, depth: 1, copies: &copies) ?? fresh
    }

    /// The live node for `saved` as the node `index`, at `depth` (1 for the root), or nil with a
    /// change when it cannot stand there.
    private mutating func node(_ saved: SavedNode, index: Int, isManaged: Bool, depth: Int, copies: inout [Int: Int]) -> LiveNode? {
        let declaration = graph[index: index]
        guard saved.entry.isWellFormed else {
            changes.append(.dropped(saved.entry.id, reason: "its context holds a value no destination can"))
            return nil
        }
        let saved = withWellFormedMemories(saved)
        if declaration.kind == .switch, saved.children.isEmpty {
            changes.append(.dropped(saved.entry.id, reason: "it is a switch node now, and was saved as a screen"))
            return nil
        }
        if declaration.canRepeat {
            copies[index, default: 0] += 1
            guard copies[index, default: 0] <= graph.limits.maxCopies else {
                changes.append(.dropped(saved.entry.id, reason: graph.limits.copiesMessage(copies[index, default: 0], of: saved.entry.id)))
                return nil
            }
        }
        guard depth - 1 + declaration.freshDepth <= graph.limits.maxDepth else {
            changes.append(.dropped(saved.entry.id, reason: graph.limits.depthMessage(depth - 1 + declaration.freshDepth)))
            return nil
        }
        switch declaration.kind {
        case .screen: return screen(saved, index: index, isManaged: isManaged, depth: depth, copies: &copies)
        case .switch: return switchNode(saved, index: index, isManaged: isManaged, depth: depth, copies: &copies)
        }
    }

    /// `saved` without the earlier contexts it remembers (`Entry.earlierContexts`) that no
    /// destination could hold, each forgotten with a change, as its own context would be.
    private mutating func withWellFormedMemories(_ saved: SavedNode) -> SavedNode {
        var saved = saved
        let remembered = saved.entry.earlierContexts
        saved.entry.earlierContexts = remembered.filter { Entry(saved.entry.id, context: $0).isWellFormed }
        let forgotten = remembered.count - saved.entry.earlierContexts.count
        if forgotten > 0 {
            changes.append(.forgotten(
                "\(forgotten) earlier contexts of '\(Excerpt.of(saved.entry.id))'", reason: "they hold a value no destination can"))
        }
        return saved
    }

    private mutating func screen(_ saved: SavedNode, index: Int, isManaged: Bool, depth: Int, copies: inout [Int: Int]) -> LiveNode {
        if saved.children.count > 1 {
            changes.append(.dropped(saved.entry.id, reason: "it is a screen now, and was saved as a switch node: its kept stacks are dropped"))
        }
        var children: [LiveNode] = []
        if let position = saved.active, saved.children.indices.contains(position),
            let live = child(saved.children[position], below: saved.entry.id, parent: index, depth: depth, copies: &copies)
        {
            children = [live]
        }
        return LiveNode(
            entry: saved.entry, kind: .screen, isManaged: isManaged, nodeIndex: index, children: children,
            activeIndex: children.isEmpty ? nil : 0)
    }

    /// A screen's saved child as a live node, when the graph lets it stand on that screen.
    private mutating func child(_ saved: SavedNode, below parentID: NodeID, parent: Int, depth: Int, copies: inout [Int: Int]) -> LiveNode? {
        guard let index = graph.index(of: saved.entry.id, below: parent) else {
            changes.append(.dropped(saved.entry.id, reason: "the rules have no such node (no migration covers it)"))
            return nil
        }
        guard graph.allows(index, below: parent) else {
            changes.append(.dropped(saved.entry.id, reason: "it can no longer stand on '\(Excerpt.of(parentID))'"))
            return nil
        }
        return node(saved, index: index, isManaged: false, depth: depth + 1, copies: &copies)
    }

    private mutating func switchNode(_ saved: SavedNode, index: Int, isManaged: Bool, depth: Int, copies: inout [Int: Int]) -> LiveNode {
        let declaration = graph[index: index]
        let activeID = saved.active.flatMap { saved.children.indices.contains($0) ? saved.children[$0].entry.id : nil }
        let declared = graph.children(at: index)
        let declaredIDs = Set(declared.map { graph.id(at: $0) })
        for child in saved.children where !declaredIDs.contains(child.entry.id) {
            changes.append(.dropped(child.entry.id, reason: "'\(Excerpt.of(saved.entry.id))' no longer has such a child (no migration covers it)"))
        }
        var children: [LiveNode] = []
        for childIndex in declared {
            let id = graph.id(at: childIndex)
            // Copies count along one path: each kept stack starts from what the switch's path holds.
            var stackCopies = copies
            let live = saved.children.first { $0.entry.id == id }.flatMap {
                node($0, index: childIndex, isManaged: true, depth: depth + 1, copies: &stackCopies)
            }
            if id == activeID { copies = stackCopies }
            children.append(live ?? LiveNode.fresh(Entry(id), index: childIndex, isManaged: true, in: graph))
        }
        let active = children.firstIndex { $0.entry.id == activeID } ?? declaration.initialPosition
        return LiveNode(
            entry: saved.entry, kind: .switch, isManaged: isManaged, nodeIndex: index, children: children,
            activeIndex: children.indices.contains(active) ? active : 0)
    }
}
