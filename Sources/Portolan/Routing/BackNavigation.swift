/// What `back` does from the tree as it is: leave the top screen, or, on a switch node that goes
/// back through its history (`NodeSpec.backThroughHistory`) with nothing left to leave inside its
/// active child, return to the child that was active before (Android's bottom navigation).
enum BackNavigation: Equatable {
    /// Switch the switch node back to the child it switched away from last.
    case switchBack(NodeID, to: Entry)
    /// Route to the active path without its top screen.
    case leaveTopScreen(Destination)

    /// What back does from `tree`; nil when there is nowhere to go.
    init?(from tree: RoutingTree, switchHistory: SwitchHistory) {
        if let (switchNode, previous) = Self.switchBack(in: tree, switchHistory: switchHistory) {
            self = .switchBack(switchNode, to: previous)
        } else if let destination = Self.leavingTopScreen(of: tree) {
            self = .leaveTopScreen(destination)
        } else {
            return nil
        }
    }

    /// Goes back now, on `router`'s thread, as a route; `unreachable` when there is nowhere to go.
    static func route(on router: Router) -> RouteResult {
        let (tree, switchHistory) = router.state.withLock { ($0.tree, $0.switchHistory) }
        switch BackNavigation(from: tree, switchHistory: switchHistory) {
        case nil:
            return .failure(router.refuse(RouteFailure(
                .unreachable, "nothing to go back from: every node of the active path is the root or managed by a switch node")))
        case .leaveTopScreen(let destination):
            return router.routeNow(to: destination)
        case .switchBack(let switchNode, let previous):
            let destination: Destination
            do {
                destination = try tree.destination(switching: switchNode, to: previous.id)
            } catch {
                return .failure(router.refuse(error))
            }
            let recorded = switchHistory.count(in: switchNode)
            let result = router.routeNow(to: destination)
            if case .success = result {
                // Going back uses up the entry it went back to, and adds none for the child it left.
                router.state.withLock { $0.switchHistory.keep(first: recorded - 1, in: switchNode) }
            }
            return result
        }
    }

    /// The switch node back returns to a previous child of, and that child: the deepest switch
    /// that goes back through its history, when nothing inside its active child is left to leave.
    private static func switchBack(in tree: RoutingTree, switchHistory: SwitchHistory) -> (NodeID, Entry)? {
        guard let depth = tree.activePath.lastIndex(where: { tree.graph[$0.id]?.backThroughHistory == true }),
            let previous = switchHistory.previous(in: tree.activePath[depth].id)
        else { return nil }
        // Something unmanaged inside the active child: plain back leaves it first.
        guard topScreenDepth(of: tree) <= depth + 1 else { return nil }
        return (tree.activePath[depth].id, previous)
    }

    /// The child `instruction` switches away from, read from the tree just before it runs, when
    /// its switch node goes back through its history; nil otherwise. A route records it once it
    /// succeeds (`SwitchHistory`).
    static func childSwitchedAway(by instruction: Instruction, in tree: RoutingTree) -> (NodeID, Entry)? {
        guard case .switch(let switchNode, _) = instruction, tree.graph[switchNode.id]?.backThroughHistory == true,
            let depth = tree.activePath.lastIndex(of: switchNode), depth + 1 < tree.activePath.count
        else { return nil }
        return (switchNode.id, tree.activePath[depth + 1])
    }

    /// Where plain back leads: the active path without its top screen; nil when there is none to leave.
    static func leavingTopScreen(of tree: RoutingTree) -> Destination? {
        let depth = topScreenDepth(of: tree)
        guard depth > 0 else { return nil }
        return .path(Array(tree.activePath[..<depth]))
    }

    /// The depth of the top screen: the deepest node of the active path that no switch node
    /// manages (0, the root, when every other node is managed).
    private static func topScreenDepth(of tree: RoutingTree) -> Int {
        var depth = tree.activePath.count - 1
        while depth > 0, tree.isManaged(atDepth: depth) {
            depth -= 1
        }
        return depth
    }
}

extension RoutingTree {
    /// Where plain back leads: the active path without its top screen; nil when there is none to leave.
    public var backDestination: Destination? {
        BackNavigation.leavingTopScreen(of: self)
    }
}
