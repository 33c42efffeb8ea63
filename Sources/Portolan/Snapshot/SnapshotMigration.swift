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
        if let context, !node.entry.context.isEmpty {
            let rewritten = (try? context(node.entry.id, node.entry.context)) ?? [:]
            if rewritten != node.entry.context {
                changes.append(.contextChanged(node.entry.id, version: version))
                node.entry.context = rewritten.filter { $0.value.isWellFormed }
            }
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

    /// Re-roots the active path at `id`'s new place: the root, then `lineage`, then `id` and what
    /// was above it on the active path. A moved node in a kept stack stays where it was saved,
    /// and the conservative rule reports it if it no longer fits there.
    private func move(_ id: NodeID, under lineage: [NodeID], in root: SavedNode, changes: inout [SnapshotChange]) -> SavedNode {
        let chain = root.activeChain
        guard let position = chain.firstIndex(where: { $0.entry.id == id }), position > 0 else { return root }
        changes.append(.moved(id, under: lineage, version: version))
        // The moved node and what is above it, as a chain of single children.
        var top = chain[position]
        let ancestors = [root.entry.id] + lineage.filter { $0 != root.entry.id }
        for depth in ancestors.indices.dropFirst().reversed() {
            top = SavedNode(entry: Entry(ancestors[depth]), children: [top], active: 0)
        }
        var newRoot = root
        if let slot = root.children.firstIndex(where: { $0.entry.id == top.entry.id }) {
            // A switch root (tabs): the moved chain replaces that child, and it becomes active.
            newRoot.children[slot] = top
            newRoot.active = slot
        } else if root.children.count > 1, let active = root.active {
            newRoot.children[active] = top
        } else {
            newRoot.children = [top]
            newRoot.active = 0
        }
        return newRoot
    }
}
