/// How the running route gets back to the tree it started from (`Rollback`): one `TreeUndoStep`
/// per instruction it applied, reverted newest first from the live tree. It lives in the router's
/// state, beside the tree, so that a change from outside the route (a host's report, a tab reset,
/// a restore) can first fix the route's start: from then on the steps no longer lead back to it.
struct RouteUndoLog: Sendable {
    private var steps: [TreeUndoStep] = []
    /// The tree as the route started, fixed when something outside the route changed the tree.
    private var fixedStart: RoutingTree?

    init(capacity: Int) {
        steps.reserveCapacity(capacity)
    }

    /// Keeps the step of an instruction the route applied.
    mutating func record(_ step: TreeUndoStep) {
        // Matched in place: `fixedStart == nil` copied the whole optional tree first (callgrind).
        if case .none = fixedStart { steps.append(step) }
    }

    /// Called with the live tree just before something other than the route changes it.
    mutating func fixStart(from tree: RoutingTree) {
        guard fixedStart == nil else { return }
        fixedStart = start(from: tree)
        steps = []
    }

    /// The tree as the route started, given the live tree as the route's instructions left it.
    func start(from tree: RoutingTree) -> RoutingTree {
        if let fixedStart { return fixedStart }
        var start = tree
        for step in steps.reversed() { start.revert(step) }
        return start
    }
}

extension RouterState {
    /// Before a change from outside the running route: fixes that route's start (`RouteUndoLog`).
    mutating func treeWillChangeFromOutside() {
        undoLog?.fixStart(from: tree)
    }
}
