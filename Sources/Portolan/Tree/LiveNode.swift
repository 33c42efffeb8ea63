/// A node that exists now in the routing tree, with everything below it, as a value.
///
/// A screen holds at most one child, the one entered on top of it. A switch node holds all its
/// declared children, created with it and managed by it, and exactly one of them is active.
///
/// The tree itself keeps its active path as an array (`RoutingTree`); this is the form of what
/// hangs off it — the children a switch node keeps while another is active — and of the snapshots
/// that renderers, migrations and tests read (`RoutingTree.root`, `activeNodes`).
public struct LiveNode: Sendable, Equatable {
    public internal(set) var entry: Entry
    public let kind: NodeKind
    /// Whether the parent manages this node (it is a switch's child): such a node is never left
    /// on its own, only switched away from, and lives as long as its parent.
    public let isManaged: Bool
    /// The node's index in the graph the tree belongs to, so that bringing it back onto the active
    /// path (switching back to a tab) looks nothing up.
    let nodeIndex: Int
    public internal(set) var children: [LiveNode]
    public internal(set) var activeIndex: Int?

    public var activeChild: LiveNode? {
        activeIndex.map { children[$0] }
    }

    /// Equal when the nodes are: the index is where a graph keeps the node, not part of it, so
    /// nodes of two graphs that index differently still compare as they always did.
    public static func == (lhs: LiveNode, rhs: LiveNode) -> Bool {
        lhs.entry == rhs.entry && lhs.kind == rhs.kind && lhs.isManaged == rhs.isManaged
            && lhs.activeIndex == rhs.activeIndex && lhs.children == rhs.children
    }

    /// A node as it is when it is first entered: a switch node comes with its managed children and
    /// its declared initial child active, recursively.
    static func fresh(_ entry: Entry, index: Int, isManaged: Bool, in graph: NavigationGraph) -> LiveNode {
        let declaration = graph[index: index]
        guard declaration.kind == .switch else {
            return LiveNode(entry: entry, kind: .screen, isManaged: isManaged, nodeIndex: index, children: [], activeIndex: nil)
        }
        let children = graph.children(at: index).map { child in
            LiveNode.fresh(Entry(graph.id(at: child)), index: child, isManaged: true, in: graph)
        }
        return LiveNode(
            entry: entry, kind: .switch, isManaged: isManaged, nodeIndex: index, children: children,
            activeIndex: children.indices.contains(declaration.initialPosition) ? declaration.initialPosition : 0)
    }

    /// This node and every node below it, each before its children (the children in order),
    /// walked without recursion: a chain may be as deep as the graph allows.
    var topDown: [LiveNode] {
        var nodes: [LiveNode] = []
        var pending = [self]
        while let node = pending.popLast() {
            nodes.append(node)
            pending.append(contentsOf: node.children.reversed())
        }
        return nodes
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
