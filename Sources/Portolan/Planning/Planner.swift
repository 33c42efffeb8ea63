/// Plans a whole route up front: Portus's algorithm, made total.
///
/// From the first depth where the active path and the destination differ, it leaves (bottom-up)
/// every node below that its parent does not manage, switches when the parent there is a switch
/// node, and enters the rest. It simulates each step on the tree's own active path array
/// (`SimulatedPath`), so it copies nothing and costs O(1) per instruction plus one read of the
/// destination; and it fails with a typed `RouteFailure` before anything runs where Portus would
/// crash or loop.
public enum Planner {
    /// Asks a node whether it may be left now (the router asks the node's `canLeave`), in plan
    /// order, as the plan leaves it; what it throws fails the plan as `RouteFailure(thrownBy:)` says.
    public typealias LeaveCheck = (Entry) throws -> Bool

    public static func plan(
        from tree: RoutingTree,
        to destination: Destination,
        canLeave: LeaveCheck = { _ in true }
    ) throws(RouteFailure) -> [Instruction] {
        try planning(from: tree, to: destination, canLeave: canLeave, recordsSteps: false).instructions
    }

    /// The same plan, with what was resolved for each step and the tree's generation, for
    /// `RoutingTree.apply(_:step:)`: what a router runs.
    public static func route(
        from tree: RoutingTree,
        to destination: Destination,
        canLeave: LeaveCheck = { _ in true }
    ) throws(RouteFailure) -> PlannedRoute {
        let planning = try planning(from: tree, to: destination, canLeave: canLeave, recordsSteps: true)
        return PlannedRoute(instructions: planning.instructions, steps: planning.steps, from: tree.generation)
    }

    private static func planning(
        from tree: RoutingTree, to destination: Destination, canLeave: LeaveCheck, recordsSteps: Bool
    ) throws(RouteFailure) -> Planning {
        // Validation resolves each entry's node index once; planning then looks nothing up. The
        // planning state reads the tree's arrays and borrows the graph and the check: a plan
        // copies no tree and allocates no closure context, which matters for short routes.
        switch destination {
        case .path(let entries):
            let indices = try validate(entries, in: tree)
            var planning = Planning(SimulatedPath(tree, destination: entries), recordsSteps: recordsSteps)
            try planning.planPath(to: entries, indices: indices, in: tree.graph, canLeave: canLeave)
            return planning
        case .anywhere(let entry):
            let index = try validateAnywhere(entry, in: tree.graph)
            var planning = Planning(SimulatedPath(tree, destination: [entry]), recordsSteps: recordsSteps)
            try planning.planAnywhere(entry, index: index, in: tree.graph, canLeave: canLeave)
            return planning
        case .update(let entry, let merging, let memory):
            let top = try tree.updatedTop(entry, merging: merging, memory: memory)
            var planning = Planning(SimulatedPath(tree, destination: [top.entry]), recordsSteps: recordsSteps)
            planning.planUpdate(atDepth: top.depth, to: 0, index: tree.nodeIndices[top.depth], memory: memory)
            return planning
        case .reset(let entries):
            let indices = try validate(entries, in: tree)
            var planning = Planning(SimulatedPath(tree, destination: entries), recordsSteps: recordsSteps)
            if let edit = StackEdit(from: tree, to: entries) {
                try planning.plan(edit, canLeave: canLeave)
            } else {
                try planning.planPath(to: entries, indices: indices, in: tree.graph, canLeave: canLeave)
            }
            return planning
        case .push, .live, .remove, .replace:
            // Said relative to the live tree: the path it names now is planned as any other.
            return try planning(from: tree, to: tree.resolve(destination), canLeave: canLeave, recordsSteps: recordsSteps)
        }
    }

    // MARK: Validation, before anything is planned

    /// The node index of each entry, once the destination is known to be a path of the graph.
    private static func validate(_ entries: [Entry], in tree: RoutingTree) throws(RouteFailure) -> [Int] {
        guard let first = entries.first else {
            throw RouteFailure(.invalid, "the destination is empty")
        }
        let limits = tree.graph.limits
        guard entries.count <= limits.maxDepth else {
            throw RouteFailure(.invalid, limits.depthMessage(entries.count))
        }
        if let malformed = entries.first(where: { !$0.isWellFormed }) {
            throw RouteFailure.malformed(malformed)
        }
        let root = tree.activePath[0]
        guard first == root else {
            throw RouteFailure(.unreachable, "root mismatch: the destination starts at '\(Excerpt.of(first.description))', the tree's root is '\(root)'")
        }
        var indices = [tree.nodeIndices[0]]
        indices.reserveCapacity(entries.count)
        // By position: a for-in over the entries would copy (retain and release) each one.
        for depth in 1..<entries.count {
            indices.append(try validateStep(from: indices[depth - 1], to: entries[depth].id, in: tree.graph))
        }
        if limits.countsCopies {
            try checkCopies(of: indices, in: tree.graph)
        }
        return indices
    }

    /// Refuses a path that holds more copies of one node than the graph's limits allow; only nodes
    /// that can repeat are counted (any other stands once below each copy of its declaring parent).
    private static func checkCopies(of indices: [Int], in graph: NavigationGraph) throws(RouteFailure) {
        var copies: [Int: Int] = [:]
        for index in indices where graph[index: index].canRepeat {
            copies[index, default: 0] += 1
            if let count = copies[index], count > graph.limits.maxCopies {
                throw RouteFailure(.invalid, graph.limits.copiesMessage(count, of: graph.id(at: index)))
            }
        }
    }

    /// The index of `child`, which must be allowed below the node `parent`.
    private static func validateStep(from parent: Int, to child: NodeID, in graph: NavigationGraph) throws(RouteFailure) -> Int {
        guard let index = graph.index(of: child, below: parent) else {
            throw RouteFailure(.unreachable, "no node '\(Excerpt.of(child))' is declared")
        }
        guard graph.allows(index, below: parent) else {
            let kind = graph[index: parent].kind == .switch ? "switch node" : "node"
            throw RouteFailure(.unreachable, "'\(child)' is not a child of \(kind) '\(graph.id(at: parent))'")
        }
        return index
    }

    private static func validateAnywhere(_ entry: Entry, in graph: NavigationGraph) throws(RouteFailure) -> Int {
        guard entry.isWellFormed else {
            throw RouteFailure.malformed(entry)
        }
        guard let index = graph.index(of: entry.id) else {
            throw RouteFailure(.unreachable, "no node '\(Excerpt.of(entry.id))' is declared")
        }
        guard graph[index: index].isAnywhere else {
            throw RouteFailure(.unreachable, "'\(entry.id)' is not declared reachable from anywhere; route to its path instead")
        }
        return index
    }
}
