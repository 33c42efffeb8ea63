/// A declared node as the hot path reads it: by position in the graph's table, not by id.
///
/// Routing touches the graph once per instruction; hashing a string id there, or retaining and
/// releasing a node's arrays to read one field, would be most of what an instruction costs. Each
/// declared node gets an index when the graph is built (the root is 0, then declaration order, so
/// equal graphs index alike). This is a plain value with no references, so reading it copies
/// nothing counted; the node's id and children sit in their own arrays, read only when needed.
struct IndexedNode: Sendable {
    let kind: NodeKind
    /// The declaring parent's index; nil for the root and for nodes reachable from anywhere.
    let parent: Int?
    /// Where this node stands among its parent's declared children.
    let position: Int
    let isAnywhere: Bool
    /// A switch node's initially active child, as a position among its children.
    let initialPosition: Int
    /// A switch node that keeps its children's stacks when it switches away from them.
    let keepsStacks: Bool
    /// Whether the node may stand on a path more than once (pushed, or reachable from anywhere),
    /// so that a route or report entering it counts its copies (`PathLimits.maxCopies`).
    var canRepeat: Bool
    /// Whether the node pushes other nodes (`NavigationGraph.pushIndices`).
    var pushes = false
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
        let count = childIndices[parent].count
        if count <= Self.scannedChildren {
            // Indexed reads borrow the arrays in place; a for-in would retain them.
            for offset in 0..<count {
                let child = childIndices[parent][offset]
                if nodeIDs[child] == id { return child }
            }
        }
        return indices[id]
    }

    /// Whether the node `child` may stand directly below the node `parent` (see `allows(_:below:)`).
    @inline(__always)
    func allows(_ child: Int, below parent: Int) -> Bool {
        table[child].parent == parent || (table[child].isAnywhere && table[parent].kind == .screen)
            || (table[parent].pushes && pushIndices[parent].contains(child))
    }

    /// The table's entry for a node index the graph handed out.
    subscript(index index: Int) -> IndexedNode {
        table[index]
    }

    /// The id of a node index the graph handed out.
    func id(at index: Int) -> NodeID {
        nodeIDs[index]
    }

    /// The declared children's indices of a node index the graph handed out.
    func children(at index: Int) -> [Int] {
        childIndices[index]
    }

    /// Fills in what depends on a node's children, once all are declared: declaration order puts
    /// every child after its parent, so one backward pass sees children first.
    static func completeFreshDepths(_ table: inout [IndexedNode], children: [[Int]]) {
        for index in table.indices.reversed() where table[index].kind == .switch {
            let position = table[index].initialPosition
            if children[index].indices.contains(position) {
                table[index].freshDepth = 1 + table[children[index][position]].freshDepth
            }
        }
    }
}
