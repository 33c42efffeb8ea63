/// Carries a live tree over to a new declaration of the graph (a hot reload of the rules).
///
/// Every node that the new graph still has, in the same place and of the same kind, is kept with
/// its context; what no longer exists is dropped with everything below it. A switch node gets the
/// children the new graph declares (new ones fresh), keeping its active child when it still
/// exists. The instructions say what changed on the active path: the nodes left (bottom-up) and
/// the switch made when a switch node's active child disappeared; nothing is entered.
public struct TreeMigration: Sendable {
    public let tree: RoutingTree
    public let instructions: [Instruction]

    public init(from old: RoutingTree, to graph: NavigationGraph) {
        guard old.root.entry.id == graph.rootID else {
            // A new root: nothing of the old tree has a place in the new one.
            tree = RoutingTree(graph: graph)
            instructions = []
            return
        }
        let root = Self.migrate(old.root, in: graph) ?? LiveNode.fresh(Entry(graph.rootID), index: 0, isManaged: false, in: graph)
        tree = RoutingTree(graph: graph, root: root)
        instructions = Self.changes(from: old.activeNodes, to: tree.activeNodes)
    }

    /// The node as the new graph allows it, or nil when it no longer exists there as it was.
    /// Node indices are the new graph's: the old graph's mean nothing there.
    private static func migrate(_ node: LiveNode, in graph: NavigationGraph) -> LiveNode? {
        guard let index = graph.index(of: node.entry.id), graph[index: index].kind == node.kind else { return nil }
        let declaration = graph[index: index]
        switch node.kind {
        case .screen:
            let children = node.children.compactMap { child in
                graph.allows(child.entry.id, below: node.entry.id) ? migrate(child, in: graph) : nil
            }
            return LiveNode(
                entry: node.entry, kind: .screen, isManaged: node.isManaged, nodeIndex: index,
                children: children, activeIndex: children.isEmpty ? nil : 0)
        case .switch:
            let activeID = node.activeChild?.entry.id
            let children = graph.children(at: index).map { child in
                let id = graph.id(at: child)
                return node.children.first { $0.entry.id == id }.flatMap { migrate($0, in: graph) }
                    ?? LiveNode.fresh(Entry(id), index: child, isManaged: true, in: graph)
            }
            let activeIndex = children.firstIndex { $0.entry.id == activeID } ?? declaration.initialPosition
            return LiveNode(
                entry: node.entry, kind: .switch, isManaged: node.isManaged, nodeIndex: index,
                children: children, activeIndex: activeIndex)
        }
    }

    /// What happened on the active path: leaves of the old unmanaged nodes past the first
    /// difference, bottom-up, then the switch that replaced a vanished active child.
    private static func changes(from old: [LiveNode], to new: [LiveNode]) -> [Instruction] {
        var depth = 0
        while depth < old.count, depth < new.count, old[depth].entry == new[depth].entry {
            depth += 1
        }
        var instructions: [Instruction] = old[depth...].reversed().filter { !$0.isManaged }.map { .leave($0.entry) }
        if depth < new.count, depth > 0, new[depth].isManaged {
            instructions.append(.switch(new[depth - 1].entry, to: new[depth].entry))
        }
        return instructions
    }
}
