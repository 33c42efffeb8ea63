/// A node that exists now in the routing tree.
///
/// A screen holds at most one child, the one entered on top of it. A switch node holds all its
/// declared children, created with it and managed by it, and exactly one of them is active.
public struct LiveNode: Sendable, Equatable {
    public internal(set) var entry: Entry
    public let kind: NodeKind
    /// Whether the parent manages this node (it is a switch's child): such a node is never left
    /// on its own, only switched away from, and lives as long as its parent.
    public let isManaged: Bool
    public internal(set) var children: [LiveNode]
    public internal(set) var activeIndex: Int?

    public var activeChild: LiveNode? {
        activeIndex.map { children[$0] }
    }

    /// A node as it is when it is first entered: a switch node comes with its managed children and
    /// its declared initial child active, recursively.
    static func fresh(_ entry: Entry, isManaged: Bool, in graph: NavigationGraph) -> LiveNode {
        guard let declaration = graph[entry.id], declaration.kind == .switch else {
            return LiveNode(entry: entry, kind: .screen, isManaged: isManaged, children: [], activeIndex: nil)
        }
        let children = declaration.children.map { LiveNode.fresh(Entry($0), isManaged: true, in: graph) }
        let activeIndex = declaration.children.firstIndex(of: declaration.initialActive ?? "") ?? 0
        return LiveNode(entry: entry, kind: .switch, isManaged: isManaged, children: children, activeIndex: activeIndex)
    }

    /// This node and its active descendants, top-down.
    var activeChain: [LiveNode] {
        var chain = [self]
        var node = self
        while let child = node.activeChild {
            chain.append(child)
            node = child
        }
        return chain
    }
}
