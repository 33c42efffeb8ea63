/// A declared node as the hot path reads it: by position in the graph's table, not by id.
///
/// Routing touches the graph once per instruction; hashing a string id there is most of what an
/// instruction would cost. Each declared node gets an index when the graph is built (the root is
/// 0, then declaration order, so equal graphs index alike), and what the planner and the live
/// tree ask of a node — its kind, parent, children, initial child — is an array read.
struct IndexedNode: Sendable {
    let id: NodeID
    let kind: NodeKind
    /// The declaring parent's index; nil for the root and for nodes reachable from anywhere.
    let parent: Int?
    /// Where this node stands among its parent's declared children.
    let position: Int
    let isAnywhere: Bool
    /// The declared children's indices, in declaration order.
    var children: [Int] = []
    /// A switch node's initially active child, as a position in `children`.
    let initialPosition: Int
    /// How many nodes the node brings onto the active path when it is entered fresh: itself and,
    /// for a switch node, its initial child's chain.
    var freshDepth = 1
}

extension NavigationGraph {
    /// Up to this many children are searched by comparing ids; beyond it, one hash lookup wins.
    private static let scannedChildren = 16

    /// The index of the declared node `id`, or nil.
    func index(of id: NodeID) -> Int? {
        indices[id]
    }

    /// The index of `id` when it is to stand below the node `parent`: a declared child is found by
    /// comparing the parent's few child ids (no hashing); anything else by the table.
    func index(of id: NodeID, below parent: Int) -> Int? {
        let children = table[parent].children
        if children.count <= Self.scannedChildren {
            for child in children where table[child].id == id {
                return child
            }
        }
        return indices[id]
    }

    /// Whether the node `child` may stand directly below the node `parent` (see `allows(_:below:)`).
    func allows(_ child: Int, below parent: Int) -> Bool {
        let node = table[child]
        return node.parent == parent || (node.isAnywhere && table[parent].kind == .screen)
    }

    /// The table's entry for a node index the graph handed out.
    subscript(index index: Int) -> IndexedNode {
        table[index]
    }

    /// Fills in what depends on a node's children, once all are declared: declaration order puts
    /// every child after its parent, so one backward pass sees children first.
    static func completeFreshDepths(_ table: inout [IndexedNode]) {
        for index in table.indices.reversed() where table[index].kind == .switch {
            let children = table[index].children
            if children.indices.contains(table[index].initialPosition) {
                table[index].freshDepth = 1 + table[children[table[index].initialPosition]].freshDepth
            }
        }
    }
}
