/// A node of the live tree as a snapshot saved it: independent of any graph, since the rules it
/// is restored under may have changed (renamed, removed or moved nodes). `SnapshotResolution`
/// turns it back into live nodes of a graph.
public struct SavedNode: Sendable, Equatable {
    public var entry: Entry
    /// A screen's one child, or all of a switch's children (its kept stacks).
    public var children: [SavedNode]
    /// The active child's position; nil for a leaf.
    public var active: Int?

    public init(entry: Entry, children: [SavedNode] = [], active: Int? = nil) {
        self.entry = entry
        self.children = children
        self.active = active
    }

    /// The live node as saved.
    public init(_ node: LiveNode) {
        entry = node.entry
        children = node.children.map(SavedNode.init)
        active = node.activeIndex
    }

    /// `{"id":…, "context":{…}, "children":[…], "active":n}`; `context` omitted when empty,
    /// `children` and `active` when there are none.
    var json: JSONValue {
        var members = SnapshotFields.entryMembers(entry)
        if !children.isEmpty {
            members["children"] = .array(children.map(\.json))
            members["active"] = .integer(Int64(active ?? 0))
        }
        return .object(members)
    }

    /// Reads a node at `path`, `depth` levels below the root (refused past the engine's depth).
    init(json: JSONValue, path: String, depth: Int = 0) throws(SnapshotError) {
        guard depth < NavigationGraph.maximumDepth else {
            throw SnapshotError("not a snapshot: '\(path)' nests deeper than \(NavigationGraph.maximumDepth) nodes")
        }
        guard let members = json.objectValue else { throw .field(path, "an object") }
        entry = try SnapshotFields.entry(members, path: path)
        guard let list = members["children"] else {
            children = []
            active = nil
            guard members["active"] == nil else { throw .field(path + ".active", "absent when there are no children") }
            return
        }
        guard let elements = list.arrayValue, !elements.isEmpty else { throw .field(path + ".children", "a non-empty array") }
        var children: [SavedNode] = []
        children.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            children.append(try SavedNode(json: element, path: "\(path).children[\(index)]", depth: depth + 1))
        }
        self.children = children
        guard let position = members["active"]?.integerValue, let index = Int(exactly: position),
            children.indices.contains(index)
        else { throw .field(path + ".active", "the position of one of its children") }
        active = index
    }

    /// This node and its active descendants, top-down.
    public var activeChain: [SavedNode] {
        var chain = [self]
        var node = self
        while let index = node.active, node.children.indices.contains(index) {
            node = node.children[index]
            chain.append(node)
        }
        return chain
    }
}
