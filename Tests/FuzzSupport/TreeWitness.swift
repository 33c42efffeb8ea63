import Portolan

/// Watches a router's events and keeps a tree of its own from them, to check that the router's
/// tree reflects exactly what ran: every instruction and undo step it reports, applied in order to
/// the witness's tree, gives the router's tree; and a failed route undone in full ends exactly
/// where it started (docs/rules.md, "Transactional routes"), which the witness checks as it happens.
///
/// `@unchecked Sendable`: the router calls it on its thread, and its owner reads it on the same
/// thread (the host's), between routes.
public final class TreeWitness: @unchecked Sendable {
    private var tree: RoutingTree
    /// The witness's tree when the route now running started.
    private var start: RoutingTree?
    private let rollsBack: Bool
    /// What was wrong, in the order it was seen; cleared by `check`.
    private var problems: [String] = []
    /// Events seen, by kind: how many routes ran, failed, were undone.
    public private(set) var routesStarted = 0
    /// Routes a guard or an interceptor sent elsewhere.
    public private(set) var redirects = 0
    /// Failed routes undone in full, each checked to end where it started.
    public private(set) var rollbacksChecked = 0

    /// Starts watching `router` (for as long as it lives).
    public init(_ router: Router) {
        tree = router.tree
        rollsBack = router.configuration.rollsBack
        router.observe { [weak self, weak router] event in
            self?.see(event, router: router)
        }
    }

    private func see(_ event: RouterEvent, router: Router?) {
        switch event {
        case .willRoute:
            start = tree
            routesStarted += 1
        case .instruction(let instruction), .rolledBack(let instruction), .hostReported(let instruction):
            do {
                try tree.apply(instruction)
            } catch {
                problems.append("'\(instruction)' ran, but does not apply to the tree before it: \(error)")
            }
        case .failed(_, let failure) where failure.stage == .request:
            // Refused before it became a route (a URL that leads nowhere, a duplicate): nothing ran.
            break
        case .failed(_, let failure) where rollsBack && failure.rollbackFailure == nil:
            guard let start else { return problems.append("a route failed without starting") }
            // The router restores the tree it started from (a switch node left and entered again
            // comes back with the stacks it kept): so must the witness, and so it checks.
            if let router, router.tree.root != start.root {
                let (now, then) = (router.tree.activePath, start.activePath)
                problems.append("'\(failure)' was undone to \(now), not to \(then)" + (now == then ? " (the stacks kept below differ)" : ""))
            }
            tree = start
            rollbacksChecked += 1
        case .redirected:
            redirects += 1
        case .treeCarried:
            // The whole tree was set, kept stacks included: as a UI does, the witness reads it.
            if let router { tree = router.tree }
        case .failed, .didRoute:
            break
        }
    }

    /// What was wrong since the last check, or with `current` (the router's tree now), or nil.
    public func check(_ current: RoutingTree) -> String? {
        defer { problems = [] }
        if let first = problems.first { return first }
        if let problem = TreeInvariants.problem(in: current) { return problem }
        guard current.root == tree.root else {
            return "the tree is \(current.activePath), but what ran leads to \(tree.activePath)"
        }
        return nil
    }
}
