/// What `back` does from the tree as it is: give the top screen the context it remembers last
/// (`ContextMemory`), leave the top screen, or, on a switch node with a back behaviour
/// (`TabBackBehavior`) and nothing left to leave inside its active child, switch to the child that
/// behaviour names (React Navigation's `backBehavior`).
enum BackNavigation: Equatable {
    /// Update the top screen in place to the context it remembers last, which it then forgets.
    case restoreContext(Destination)
    /// Switch the switch node back to the child it switched away from last.
    case switchBack(NodeID, to: Entry)
    /// Route to the active path without its top screen.
    case leaveTopScreen(Destination)

    /// Why back fails when there is no screen to leave.
    static let nothingToLeave = RouteFailure(
        .unreachable, "nothing to go back from: every node of the active path is the root or managed by a switch node")

    /// What back does from `tree`; nil when there is nowhere to go.
    init?(from tree: RoutingTree, switchHistory: SwitchHistory) {
        if tree.depth > 1, let remembered = tree.leaf.earlierContexts.last {
            self = .restoreContext(.update(Entry(tree.leaf.id, context: remembered), memory: .restore))
        } else if let (switchNode, previous) = Self.switchBack(in: tree, switchHistory: switchHistory) {
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
            return .failure(router.refuse(nothingToLeave))
        case .leaveTopScreen(let destination), .restoreContext(let destination):
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
            if case .success = result, tree.graph[switchNode]?.back.keepsHistory == true {
                // Going back uses up the entry it went back to, and adds none for the child it left.
                router.state.withLock { $0.switchHistory.keep(first: recorded - 1, in: switchNode) }
            }
            return result
        }
    }

    /// The switch node back switches, and the child it switches to: the deepest switch node whose
    /// back behaviour names a child, when nothing inside its active child is left to leave (a
    /// switch node whose behaviour names none, on its first tab say, lets back go on outward).
    private static func switchBack(in tree: RoutingTree, switchHistory: SwitchHistory) -> (NodeID, Entry)? {
        let top = topScreenDepth(of: tree)
        for depth in stride(from: tree.activePath.count - 2, through: 0, by: -1) {
            // Something unmanaged inside the active child: plain back leaves it first.
            guard top <= depth + 1 else { return nil }
            let id = tree.activePath[depth].id
            guard let node = tree.graph[id], node.back != .none,
                let target = target(of: node, from: tree.activePath[depth + 1].id, history: switchHistory)
            else { continue }
            return (id, target)
        }
        return nil
    }

    /// The child `node`'s back behaviour switches to from its active child `active`; nil for none.
    private static func target(of node: NodeDeclaration, from active: NodeID, history: SwitchHistory) -> Entry? {
        let children = node.children
        let chosen: NodeID?
        switch node.back {
        case .history, .fullHistory:
            return history.previous(in: node.id)
        case .first:
            chosen = children.first
        case .initial:
            chosen = node.initialActive ?? children.first
        case .order:
            chosen = children.firstIndex(of: active).flatMap { $0 > 0 ? children[$0 - 1] : nil }
        case .none:
            chosen = nil
        }
        return chosen.flatMap { $0 == active ? nil : Entry($0) }
    }

    /// The child `instruction` switches away from, read from the tree just before it runs, when
    /// its switch node goes back through its history; nil otherwise. A route records it once it
    /// succeeds (`SwitchHistory`).
    static func childSwitchedAway(by instruction: Instruction, in tree: RoutingTree) -> SwitchAway? {
        guard case .switch(let switchNode, let target) = instruction, let back = tree.graph[switchNode.id]?.back,
            back.keepsHistory, let depth = tree.activePath.lastIndex(of: switchNode), depth + 1 < tree.activePath.count
        else { return nil }
        return SwitchAway(switchNode: switchNode.id, child: tree.activePath[depth + 1], target: target.id, back: back)
    }

    /// A switch away from a child, as `SwitchHistory.record` takes it.
    struct SwitchAway {
        let switchNode: NodeID
        let child: Entry
        let target: NodeID
        /// The switch node's behaviour, one that keeps a history.
        let back: TabBackBehavior
    }

    /// Where plain back leads: the active path without its top screen; nil when there is none to leave.
    static func leavingTopScreen(of tree: RoutingTree) -> Destination? {
        let depth = topScreenDepth(of: tree)
        guard depth > 0 else { return nil }
        return .path(Array(tree.activePath[..<depth]))
    }

    /// Goes back as far as `distance` says, now, on `router`'s thread, as one route: `invalid` for
    /// a distance out of range, `unreachable` when screens are to be left and there are none.
    static func route(on router: Router, _ distance: BackDistance) -> RouteResult {
        let tree = router.state.withLock { $0.tree }
        let depths = screenDepths(of: tree)
        guard let count = distance.count(of: depths.map { tree.activePath[$0] }) else {
            return .failure(router.refuse(RouteFailure(
                .invalid, "back \(distance): a count of screens is at least 1, and a number kept at least 0")))
        }
        if count == 0, case .screens = distance {
            return .failure(router.refuse(nothingToLeave))
        }
        let kept = count == 0 ? tree.activePath.count : depths[count - 1]
        return router.routeNow(to: .path(Array(tree.activePath[..<kept])))
    }

    /// The depths of the screens back can leave, top first: every node of the active path but the
    /// root that no switch node manages, above the deepest floor (`NodeSpec.isFloor`).
    static func screenDepths(of tree: RoutingTree) -> [Int] {
        (0..<tree.activePath.count).reversed()
            .prefix { $0 > 0 && tree.graph[tree.activePath[$0].id]?.isFloor != true }
            .filter { !tree.isManaged(atDepth: $0) }
    }

    /// The depth of the top screen: the deepest node of the active path that no switch node
    /// manages (0, the root, when every other node is managed).
    private static func topScreenDepth(of tree: RoutingTree) -> Int {
        screenDepths(of: tree).first ?? 0
    }
}

extension RoutingTree {
    /// Where plain back leads: the active path without its top screen; nil when there is none to leave.
    public var backDestination: Destination? {
        BackNavigation.leavingTopScreen(of: self)
    }

    /// The screens back can leave, top first (`BackDistance`).
    public var backScreens: [Entry] {
        BackNavigation.screenDepths(of: self).map { activePath[$0] }
    }
}
