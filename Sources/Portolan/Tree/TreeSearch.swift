/// Finding nodes in the live tree, kept stacks included: RouteComposer's finders, and a tab tap.
extension RoutingTree {
    /// The path from the root to the live node `id` (whose context holds `context`'s values, when
    /// given), wherever it is: on the active path, or in a stack a switch node keeps. The active
    /// path is searched first, then kept children in declaration order; nil when no live node is it.
    ///
    /// Without `occurrence`, the deepest match of the active path wins (else the first kept one);
    /// with it, the `occurrence`-th match counted from the root along one path (the second
    /// `product` of a stack), on the first path that has that many.
    public func livePath(to id: NodeID, context: Context? = nil, occurrence: Int? = nil) -> [Entry]? {
        func matches(_ entry: Entry) -> Bool {
            guard entry.id == id else { return false }
            guard let context else { return true }
            return context.allSatisfy { entry.context[$0.key] == $0.value }
        }
        let wanted = occurrence ?? 1
        guard wanted >= 1 else { return nil }
        if occurrence == nil, let depth = activePath.lastIndex(where: matches) {
            return Array(activePath[...depth])
        }
        var seen = 0
        for depth in activePath.indices where matches(activePath[depth]) {
            seen += 1
            if seen == wanted { return Array(activePath[...depth]) }
        }
        return Self.search(root, matching: matches, wanted: wanted, seen: 0, above: [])
    }

    /// Depth-first through kept children (the active child's chain is the active path, searched
    /// already), returning the path to the first node that is the `wanted`-th match along its path.
    private static func search(
        _ node: LiveNode, matching matches: (Entry) -> Bool, wanted: Int, seen: Int, above: [Entry]
    ) -> [Entry]? {
        let path = above + [node.entry]
        let seen = matches(node.entry) ? seen + 1 : seen
        if seen == wanted, matches(node.entry) { return path }
        for child in node.children {
            if let found = search(child, matching: matches, wanted: wanted, seen: seen, above: path) { return found }
        }
        return nil
    }

    /// The destination a tab tap leads to: the switch node `switchID` of the active path showing
    /// its child `childID` with whatever that child keeps open (its kept stack), or the active path
    /// when the child is already showing. Throws `unreachable` when there is no such switch or child.
    public func destination(switching switchID: NodeID, to childID: NodeID) throws(RouteFailure) -> Destination {
        guard let depth = activePath.lastIndex(where: { $0.id == switchID }),
            graph[switchID]?.kind == .switch
        else {
            throw RouteFailure(.unreachable, "no switch node '\(switchID)' is on the active path")
        }
        guard graph[switchID]?.declares(child: childID) == true else {
            throw RouteFailure(.unreachable, "'\(childID)' is not a child of switch node '\(switchID)'")
        }
        if depth + 1 < activePath.count, activePath[depth + 1].id == childID {
            return .path(activePath)
        }
        let node = activeNodes[depth]
        guard let child = node.children.first(where: { $0.entry.id == childID }) else {
            throw RouteFailure(.unreachable, "'\(childID)' is not a child of switch node '\(switchID)'")
        }
        return .path(Array(activePath[...depth]) + child.activeChain.map(\.entry))
    }
}

extension RoutingTree {
    /// A destination made absolute. A path whose first id is a node reachable from anywhere is a
    /// path inside that node's subtree (a modal flow, as `{ "checkout", "address" }`): it continues
    /// inside the node where the node shows, and is entered on top of the active leaf otherwise.
    /// Any other destination is returned as it is.
    /// A push or a live copy becomes the path it names now (`resolve`), or stays as it is when it
    /// names nothing (the planner then says why).
    public func absolute(_ destination: Destination) -> Destination {
        if destination.isRelativeToLiveTree {
            return (try? resolve(destination)) ?? destination
        }
        guard case .path(let entries) = destination, let first = entries.first, first.id != graph.rootID,
            graph[first.id]?.isAnywhere == true
        else { return destination }
        if let depth = activePath.lastIndex(where: { $0.id == first.id }) {
            return .path(Array(activePath[..<depth]) + entries)
        }
        return .path(activePath + entries)
    }
}
