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

    /// The tree as the document holds it: a flat list of its nodes, depth first (a node, then each
    /// of its children's subtrees in order), each `{"id":…, "context":{…}, "children":n,
    /// "active":i}` with `children` the number of its children and `active` the active one's
    /// position (both omitted for a leaf, `context` when empty), and `"earlier_contexts":[{…}]`,
    /// oldest first, for a screen that remembers contexts (`Entry.earlierContexts`). Flat, so that a path 1,000 nodes
    /// deep nests no deeper in JSON than a path of one (a JSON decoder bounds its nesting).
    var json: JSONValue {
        var nodes: [JSONValue] = []
        appendFlat(to: &nodes)
        return .array(nodes)
    }

    private func appendFlat(to nodes: inout [JSONValue]) {
        var members = SnapshotFields.entryMembers(entry)
        if !entry.earlierContexts.isEmpty {
            members["earlier_contexts"] = .array(entry.earlierContexts.map(SnapshotFields.context))
        }
        if !children.isEmpty {
            members["children"] = .integer(Int64(children.count))
            members["active"] = .integer(Int64(active ?? 0))
        }
        nodes.append(.object(members))
        for child in children { child.appendFlat(to: &nodes) }
    }

    /// Reads the tree from its flat list (`json`), refusing any list that is not exactly one tree.
    init(json: JSONValue, path: String) throws(SnapshotError) {
        guard let nodes = json.arrayValue, !nodes.isEmpty, nodes.count <= SnapshotLimits.maximumNodes else {
            throw .field(path, "a non-empty array of at most \(SnapshotLimits.maximumNodes) nodes")
        }
        var next = 0
        self = try SavedNode(flat: nodes, next: &next, path: path, depth: 0)
        guard next == nodes.count else { throw .field("\(path)[\(next)]", "part of the tree (it follows the last node)") }
    }

    /// The node at `next` and its subtree, `depth` levels below the root (refused past the engine's depth).
    private init(flat nodes: [JSONValue], next: inout Int, path: String, depth: Int) throws(SnapshotError) {
        let place = "\(path)[\(next)]"
        guard depth < NavigationGraph.maximumDepth else {
            throw SnapshotError("not a snapshot: '\(place)' is deeper than \(NavigationGraph.maximumDepth) nodes")
        }
        guard next < nodes.count else { throw .field(path, "a list holding every child its nodes count") }
        guard let members = nodes[next].objectValue else { throw .field(place, "an object") }
        next += 1
        entry = try SnapshotFields.entry(members, path: place)
        entry.earlierContexts = try Self.earlierContexts(members["earlier_contexts"], path: place + ".earlier_contexts")
        let unknown = members.keys.first { !["id", "context", "earlier_contexts", "children", "active"].contains($0) }
        if let unknown { throw SnapshotError("not a snapshot: unknown field '\(place).\(unknown)'") }
        guard let counted = members["children"] else {
            children = []
            active = nil
            guard members["active"] == nil else { throw .field(place + ".active", "absent when there are no children") }
            return
        }
        guard let count = counted.integerValue.flatMap({ Int(exactly: $0) }), count >= 1, count <= nodes.count - next else {
            throw .field(place + ".children", "the number of its children, from 1 to the nodes that follow")
        }
        var children: [SavedNode] = []
        children.reserveCapacity(count)
        for _ in 0..<count {
            children.append(try SavedNode(flat: nodes, next: &next, path: path, depth: depth + 1))
        }
        self.children = children
        guard let position = members["active"]?.integerValue, let index = Int(exactly: position),
            children.indices.contains(index)
        else { throw .field(place + ".active", "the position of one of its children") }
        active = index
    }

    private static func earlierContexts(_ json: JSONValue?, path: String) throws(SnapshotError) -> [Context] {
        guard let json else { return [] }
        guard let list = json.arrayValue, !list.isEmpty, list.count <= Entry.earlierContextLimit else {
            throw .field(path, "a non-empty array of at most \(Entry.earlierContextLimit) contexts")
        }
        var contexts: [Context] = []
        for (position, saved) in list.enumerated() {
            contexts.append(try SnapshotFields.context(saved, path: "\(path)[\(position)]"))
        }
        return contexts
    }

    /// The node at `place`, child positions from this one (empty: this node itself). Places come
    /// from walking this very tree, so each position exists.
    subscript(place: ArraySlice<Int>) -> SavedNode {
        get {
            guard let first = place.first else { return self }
            return children[first][place.dropFirst()]
        }
        set {
            guard let first = place.first else {
                self = newValue
                return
            }
            children[first][place.dropFirst()] = newValue
        }
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
