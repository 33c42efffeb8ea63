import Portolan

/// What must hold of any graph an app declared and of any live tree, whatever routes ran: what
/// the app-spec fuzzer checks after every load and route, and the soak after every route.
public enum TreeInvariants {
    /// What is wrong with `graph`, or nil: every node is reachable from the root or an anywhere
    /// node, each exactly once (ids are unique), parents and children agree, each switch has
    /// children and an initial child among them, nothing is deeper than the engine allows.
    public static func problem(in graph: NavigationGraph) -> String? {
        var seen: Set<NodeID> = []
        var pending: [(NodeID, depth: Int)] = [(graph.rootID, 1)] + graph.anywhereIDs.map { ($0, 1) }
        guard graph[graph.rootID]?.parent == nil, graph[graph.rootID]?.isAnywhere == false else {
            return "the root '\(graph.rootID)' is not a root"
        }
        while let (id, depth) = pending.popLast() {
            guard let node = graph[id] else { return "'\(id)' is named but not declared" }
            guard seen.insert(id).inserted else { return "'\(id)' is reached twice" }
            guard depth <= NavigationGraph.maximumDepth else { return "'\(id)' is deeper than the limit" }
            guard node.id == id, !id.isEmpty else { return "a node is declared as '\(node.id)' under '\(id)'" }
            switch node.kind {
            case .switch:
                guard let active = node.initialActive, node.children.contains(active) else {
                    return "switch '\(id)' starts on \(node.initialActive ?? "nothing"), not one of its children"
                }
            case .screen:
                guard node.initialActive == nil else { return "screen '\(id)' has an initial child" }
            }
            for child in node.children {
                guard graph[child]?.parent == id, graph[child]?.isAnywhere == false else {
                    return "'\(child)' is a child of '\(id)' that does not name it as its parent"
                }
                pending.append((child, depth + 1))
            }
        }
        return seen.count == graph.nodes.count ? nil : "\(graph.nodes.count - seen.count) nodes are reachable from nowhere"
    }

    /// What is wrong with `tree`, or nil: the active path starts at the root and each step is
    /// allowed by the graph; a switch node holds exactly its declared children, one of them
    /// active; a screen holds at most the one node shown on top of it; the active path is the
    /// chain of active children from the root.
    public static func problem(in tree: RoutingTree) -> String? {
        let graph = tree.graph
        let path = tree.activePath.map(\.id)
        guard path.first == graph.rootID else { return "the active path \(path) does not start at the root" }
        guard path.count <= NavigationGraph.maximumDepth else { return "the active path is \(path.count) deep" }
        for (parent, child) in zip(path, path.dropFirst()) where !graph.allows(child, below: parent) {
            return "the active path \(path) has '\(child)' below '\(parent)'"
        }
        let root = tree.root
        var pending = [root]   // the whole tree: the stacks switch nodes keep too
        while let node = pending.popLast() {
            if let problem = problem(in: node, graph: graph) { return problem }
            pending.append(contentsOf: node.children)
        }
        var chain: [NodeID] = []
        var node: LiveNode? = root
        while let current = node {
            chain.append(current.entry.id)
            node = current.activeChild
        }
        return chain == path ? nil : "the active path \(path) is not the chain of active children \(chain)"
    }

    /// What is wrong with one live node (not what hangs below it).
    private static func problem(in node: LiveNode, graph: NavigationGraph) -> String? {
        let id = node.entry.id
        guard let declaration = graph[id], declaration.kind == node.kind else { return "'\(id)' is live but not so declared" }
        guard node.entry.isWellFormed else { return "'\(node.entry)' is not well formed" }
        let children = node.children.map(\.entry.id)
        switch node.kind {
        case .switch:
            guard children == declaration.children, node.children.allSatisfy(\.isManaged) else {
                return "switch '\(id)' holds \(children), declared with \(declaration.children)"
            }
            guard let active = node.activeIndex, children.indices.contains(active) else {
                return "switch '\(id)' has no active child among \(children)"
            }
        case .screen:
            guard children.count <= 1, node.activeIndex == (children.isEmpty ? nil : 0), !node.children.contains(where: \.isManaged) else {
                return "screen '\(id)' holds \(children) with active index \(node.activeIndex.map(String.init) ?? "nil")"
            }
            if let child = children.first, !graph.allows(child, below: id) { return "'\(child)' cannot stand on '\(id)'" }
        }
        return nil
    }
}
