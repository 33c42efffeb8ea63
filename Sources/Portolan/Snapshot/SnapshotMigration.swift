/// What changed in the rules at one version, as the app declares it
/// (`migrations = { [N] = { renamed = …, removed = …, moved = …, context = … } }`): restoring a
/// snapshot written at an older version applies each version's migration in order.
public struct SnapshotMigration: Sendable {
    /// Rewrites a context saved under an older version: the node's id (after renames) and its
    /// context; returns the new context, or throws to drop the context (reported).
    public typealias ContextRewrite = @Sendable (NodeID, Context) throws -> Context

    /// The version this migration leads to.
    public let version: Int
    /// Old id → new id.
    public let renamed: [NodeID: NodeID]
    /// Ids that no longer exist; a saved node with one is dropped with what was below it.
    public let removed: Set<NodeID>
    /// Id → its new ancestors, from the root's child down: the active path is re-rooted there.
    public let moved: [NodeID: [NodeID]]
    public let context: ContextRewrite?
    /// Whether states saved before this version cannot be carried over at all: a restore of one
    /// is refused, saying so (`incompatible = true`).
    public let isIncompatible: Bool

    public init(
        version: Int, renamed: [NodeID: NodeID] = [:], removed: Set<NodeID> = [], moved: [NodeID: [NodeID]] = [:],
        context: ContextRewrite? = nil, isIncompatible: Bool = false
    ) {
        self.version = version
        self.renamed = renamed
        self.removed = removed
        self.moved = moved
        self.context = context
        self.isIncompatible = isIncompatible
    }

    /// Applies this migration to a saved tree, adding what it changed to `changes`. The root is
    /// never removed (a migration cannot remove the app).
    func apply(to root: SavedNode, changes: inout [SnapshotChange]) -> SavedNode {
        var root = rewrite(root, depth: 0, changes: &changes) ?? SavedNode(entry: root.entry)
        for (id, lineage) in moved.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            root = move(id, under: lineage, in: root, changes: &changes)
        }
        return root
    }

    /// Renames, removals and contexts of `node` and everything below it; nil when it is removed.
    private func rewrite(_ node: SavedNode, depth: Int, changes: inout [SnapshotChange]) -> SavedNode? {
        if depth > 0, removed.contains(node.entry.id) {
            changes.append(.removed(node.entry.id, version: version))
            return nil
        }
        var node = node
        if let new = renamed[node.entry.id] {
            changes.append(.renamed(node.entry.id, to: new, version: version))
            node.entry.id = new
        }
        if let context {
            let id = node.entry.id
            var changed = false
            // What the screen remembers was its context once, and is rewritten as one.
            let rewrite = { (saved: Context) -> Context in
                guard !saved.isEmpty else { return saved }
                let rewritten = ((try? context(id, saved)) ?? [:]).filter { $0.value.isWellFormed }
                if rewritten != saved { changed = true }
                return rewritten
            }
            node.entry.context = rewrite(node.entry.context)
            node.entry.earlierContexts = node.entry.earlierContexts.map(rewrite)
            if changed { changes.append(.contextChanged(id, version: version)) }
        }
        var kept: [SavedNode] = []
        var active: Int?
        for (position, child) in node.children.enumerated() {
            guard let migrated = rewrite(child, depth: depth + 1, changes: &changes) else { continue }
            if position == node.active { active = kept.count }
            kept.append(migrated)
        }
        node.children = kept
        node.active = kept.isEmpty ? nil : (active ?? 0)
        return node
    }

    /// Moves `id` with what was above it to its new place: under the root, then `lineage` (its
    /// new ancestors), each found among the saved children or made. On the saved active path the
    /// path is re-rooted there, made active, and what a screen held on top where the moved chain
    /// now stands is dropped and reported. In a kept stack the chain moves without changing what
    /// is active (`moveKept`).
    private func move(_ id: NodeID, under lineage: [NodeID], in root: SavedNode, changes: inout [SnapshotChange]) -> SavedNode {
        let path = lineage.filter { $0 != root.entry.id }.prefix(NavigationGraph.maximumDepth)
        let chain = root.activeChain
        guard let position = chain.firstIndex(where: { $0.entry.id == id }), position > 0 else {
            return moveKept(id, under: lineage, along: path, in: root, changes: &changes)
        }
        changes.append(.moved(id, under: lineage, version: version))
        return graft(chain[position], along: path, into: Self.cut(root, below: position - 1), changes: &changes)
    }

    /// Moves `id` out of the kept stack that holds it (a screen's child off the active path) to
    /// its place under `lineage` (`path` below the root), leaving every active child as it was. Where that place would be
    /// on the active path, or is taken by another stack, the chain is dropped instead and
    /// reported: a kept stack's move never changes what shows, nor takes another stack's place.
    private func moveKept(
        _ id: NodeID, under lineage: [NodeID], along path: ArraySlice<NodeID>, in root: SavedNode, changes: inout [SnapshotChange]
    ) -> SavedNode {
        guard let place = Self.keptPlace(of: id, in: root, isActive: true) else { return root }
        var root = root
        let moved = root[place[...]]
        root[place.dropLast()].children.removeAll()
        root[place.dropLast()].active = nil
        var parent: ArraySlice<Int> = []
        var onActivePath = true
        for step in path + [id] {
            let node = root[parent]
            if step != id, let existing = node.children.firstIndex(where: { $0.entry.id == step }) {
                onActivePath = onActivePath && node.active == existing
                parent.append(existing)
                continue
            }
            let isSwitch = node.children.count > 1
            guard isSwitch || node.children.isEmpty else {
                return Self.dropped(moved, changes: &changes, reason: "its new place holds another stack (version \(version))", in: root)
            }
            guard isSwitch || !onActivePath else {
                return Self.dropped(moved, changes: &changes, reason: "its new place is on the active path (version \(version))", in: root)
            }
            // A switch's missing child, or a screen off the active path with nothing on it.
            root[parent].children.append(step == id ? moved : SavedNode(entry: Entry(step)))
            if !isSwitch { root[parent].active = 0 }
            onActivePath = false
            parent.append(root[parent].children.count - 1)
        }
        changes.append(.moved(id, under: lineage, version: version))
        return root
    }

    /// `root` without `moved`, which a kept stack's move could not place, and the change saying why.
    private static func dropped(_ moved: SavedNode, changes: inout [SnapshotChange], reason: String, in root: SavedNode) -> SavedNode {
        changes.append(.dropped(moved.entry.id, reason: "moved from a kept stack, but \(reason)"))
        return root
    }

    /// Where `id` stands in a kept stack, as child positions from `node`: the first found off the
    /// active path as a screen's child (a switch's own children are its tabs, which do not move).
    private static func keptPlace(of id: NodeID, in node: SavedNode, isActive: Bool) -> [Int]? {
        let isSwitch = node.children.count > 1
        for (position, child) in node.children.enumerated() {
            let childIsActive = isActive && node.active == position
            if child.entry.id == id, !isSwitch, !childIsActive { return [position] }
            if let below = keptPlace(of: id, in: child, isActive: childIsActive) { return [position] + below }
        }
        return nil
    }

    /// The tree without the active chain's node at `depth + 1` (and what is above it).
    private static func cut(_ node: SavedNode, below depth: Int) -> SavedNode {
        var node = node
        guard let active = node.active, node.children.indices.contains(active) else { return node }
        if depth > 0 {
            node.children[active] = cut(node.children[active], below: depth - 1)
            return node
        }
        node.children.remove(at: active)
        node.active = node.children.isEmpty ? nil : 0
        return node
    }

    /// `moved` made the active chain's top below `node`, along `path`.
    private func graft(
        _ moved: SavedNode, along path: ArraySlice<NodeID>, into node: SavedNode, changes: inout [SnapshotChange]
    ) -> SavedNode {
        var node = node
        let id = path.first ?? moved.entry.id
        let existing = node.children.firstIndex { $0.entry.id == id }
        let child: SavedNode
        if path.isEmpty {
            child = moved
        } else {
            child = graft(moved, along: path.dropFirst(), into: existing.map { node.children[$0] } ?? SavedNode(entry: Entry(id)), changes: &changes)
        }
        if let existing {
            node.children[existing] = child
            node.active = existing
        } else if node.children.count > 1 {
            // A switch: the conservative rule drops the child, reported, if the switch has no such child.
            node.children.append(child)
            node.active = node.children.count - 1
        } else {
            for replaced in node.children {
                changes.append(.dropped(replaced.entry.id, reason: "the move of '\(Excerpt.of(moved.entry.id))' took its place (version \(version))"))
            }
            node.children = [child]
            node.active = 0
        }
        return node
    }
}
