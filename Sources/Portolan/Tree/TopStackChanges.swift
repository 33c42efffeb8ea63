/// The changes that reach below the top of the active stack (`Instruction.remove`, `insert`,
/// `move`): a screen taken out, put in or moved, while everything else stays where it is.
///
/// They act only inside the top stack: on screens that stand on a screen, with nothing but
/// screens above them up to the top. A switch node there would hold depths in its state, and a
/// child it manages is no screen of a stack. Each change is refused unless every screen it moves
/// next to another may stand on it by the graph (a declared child, or a node it pushes), so the
/// tree keeps the invariants `apply(_:)` promises.
extension RoutingTree {
    /// Takes the deepest screen equal to `entry` out of the top stack, from below its top screen.
    mutating func remove(_ entry: Entry) throws(TreeUpdateError) {
        let depth = try topStackDepth(of: entry)
        guard depth < activePath.count - 1 else { throw .isTopScreen(entry) }
        try checkStands(nodeIndices[depth + 1], on: nodeIndices[depth - 1])
        activePath.remove(at: depth)
        nodeIndices.remove(at: depth)
    }

    /// Puts `entry` into the top stack directly under the deepest screen equal to `upper`.
    mutating func insert(_ entry: Entry, under upper: Entry) throws(TreeUpdateError) {
        guard entry.isWellFormed else { throw .malformedEntry(entry) }
        guard let index = graph.index(of: entry.id) else { throw .unknownNode(entry.id) }
        guard graph[index: index].kind == .screen else { throw .notInTopStack(entry) }
        guard activePath.count < graph.limits.maxDepth else { throw .tooDeep(limit: graph.limits.maxDepth) }
        if graph[index: index].canRepeat, graph.limits.countsCopies, copies(of: index) >= graph.limits.maxCopies {
            throw .tooManyCopies(entry.id, limit: graph.limits.maxCopies)
        }
        let depth = try topStackDepth(of: upper)
        try checkStands(index, on: nodeIndices[depth - 1])
        try checkStands(nodeIndices[depth], on: index)
        activePath.insert(entry, at: depth)
        nodeIndices.insert(index, at: depth)
    }

    /// Moves the deepest screen equal to `entry` to stand directly under the deepest screen equal
    /// to `upper`, or on top when `upper` is nil. Checked on a copy, so a refusal changes nothing.
    mutating func move(_ entry: Entry, under upper: Entry?) throws(TreeUpdateError) {
        let from = try topStackDepth(of: entry)
        var path = activePath
        var indices = nodeIndices
        let index = indices.remove(at: from)
        // The live entry moves, not the instruction's equal one: it keeps what it remembers.
        let moving = path.remove(at: from)
        var to = path.count
        if let upper {
            guard let depth = path.lastIndex(of: upper) else { throw .notOnActivePath(upper) }
            guard isTopStackPosition(depth) else { throw .notInTopStack(upper) }
            to = depth
        }
        if from < path.count { try checkStands(indices[from], on: indices[from - 1]) }
        try checkStands(index, on: indices[to - 1])
        if to < path.count { try checkStands(indices[to], on: index) }
        path.insert(moving, at: to)
        indices.insert(index, at: to)
        activePath = path
        nodeIndices = indices
    }

    /// What stands directly on the deepest entry equal to `entry`: nil when it is the top, or not
    /// on the active path.
    func entry(above entry: Entry) -> Entry? {
        guard let depth = activePath.lastIndex(of: entry), depth + 1 < activePath.count else { return nil }
        return activePath[depth + 1]
    }

    /// The depth of the deepest entry equal to `entry` when it is a screen of the top stack: it
    /// stands on a screen, and no switch node stands at or above what it stands on.
    private func topStackDepth(of entry: Entry) throws(TreeUpdateError) -> Int {
        guard let depth = activePath.lastIndex(of: entry) else { throw .notOnActivePath(entry) }
        guard isTopStackPosition(depth) else { throw .notInTopStack(entry) }
        return depth
    }

    /// Whether a screen at `depth` stands in the top stack: what it stands on is above the
    /// deepest switch node (so that, and everything up to the top, is a screen). The same whether
    /// the path is the active one or one being edited above that switch node.
    func isTopStackPosition(_ depth: Int) -> Bool {
        depth - 1 > (switches.last?.depth ?? -1)
    }

    /// Refuses to stand the node `upper` directly on the node `lower` unless the graph allows it.
    private func checkStands(_ upper: Int, on lower: Int) throws(TreeUpdateError) {
        guard graph.allows(upper, below: lower) else {
            throw .cannotStand(graph.id(at: upper), onTopOf: graph.id(at: lower))
        }
    }
}
