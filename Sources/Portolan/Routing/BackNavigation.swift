/// Back: leave the top screen, or, on a switch node that goes back through its history
/// (`NodeSpec.backThroughHistory`) with nothing left to leave inside its active child, return to
/// the child that was active before (Android's bottom navigation).
extension Router {
    /// Goes back, and returns when the route has run; `unreachable` when there is nowhere to go.
    public func back() async -> RouteResult {
        await thread.run { self.backNow() }
    }

    /// Goes back now, on the router's thread (a host's unit of work), as a route.
    public func backNow() -> RouteResult {
        let tree = self.tree
        if let (switchNode, previous) = switchBack(in: tree) {
            let destination: Destination
            do {
                destination = try tree.destination(switching: switchNode, to: previous.id)
            } catch {
                return .failure(error)
            }
            let recorded = state.withLock { $0.switchHistory[switchNode]?.count ?? 0 }
            let result = routeNow(to: destination)
            if case .success = result {
                // Going back uses up the entry it went back to, and adds none for the child it left.
                state.withLock { state in
                    state.switchHistory[switchNode] = Array((state.switchHistory[switchNode] ?? []).prefix(recorded - 1))
                }
            }
            return result
        }
        guard let destination = tree.backDestination else {
            return .failure(RouteFailure(
                .unreachable, "nothing to go back from: every node of the active path is the root or managed by a switch node"))
        }
        return routeNow(to: destination)
    }

    /// The switch node back returns to a previous child of, and that child: the deepest switch
    /// that goes back through its history, when nothing inside its active child is left to leave.
    private func switchBack(in tree: RoutingTree) -> (NodeID, Entry)? {
        guard let depth = tree.activePath.lastIndex(where: { tree.graph[$0.id]?.backThroughHistory == true }),
            let previous = state.withLock({ $0.switchHistory[tree.activePath[depth].id]?.last })
        else { return nil }
        // Something unmanaged inside the active child: plain back leaves it first.
        guard tree.topScreenDepth <= depth + 1 else { return nil }
        return (tree.activePath[depth].id, previous)
    }

    /// The child `instruction` switches away from, read from the tree just before it runs, when
    /// its switch node goes back through its history; nil otherwise.
    static func childSwitchedAway(by instruction: Instruction, in tree: RoutingTree) -> (NodeID, Entry)? {
        guard case .switch(let switchNode, _) = instruction, tree.graph[switchNode.id]?.backThroughHistory == true,
            let depth = tree.activePath.lastIndex(of: switchNode), depth + 1 < tree.activePath.count
        else { return nil }
        return (switchNode.id, tree.activePath[depth + 1])
    }
}

extension RoutingTree {
    /// The depth of the top screen: the deepest node of the active path that no switch node
    /// manages (0, the root, when every other node is managed).
    var topScreenDepth: Int {
        var depth = activePath.count - 1
        while depth > 0, isManaged(atDepth: depth) {
            depth -= 1
        }
        return depth
    }

    /// Where plain back leads: the active path without its top screen; nil when there is none to leave.
    public var backDestination: Destination? {
        let depth = topScreenDepth
        guard depth > 0 else { return nil }
        return .path(Array(activePath[..<depth]))
    }
}
