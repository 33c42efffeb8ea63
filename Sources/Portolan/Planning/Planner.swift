/// Plans a whole route up front: Portus's algorithm, made total.
///
/// From the first depth where the active path and the destination differ, it leaves (bottom-up)
/// every node below that its parent does not manage, switches when the parent there is a switch
/// node, and enters the rest. It simulates each step on the tree's own active path array
/// (`SimulatedPath`), so it copies nothing and costs O(1) per instruction plus one read of the
/// destination; and it fails with a typed `RouteFailure` before anything runs where Portus would
/// crash or loop.
public enum Planner {
    /// Asks a node whether it may be left now; throwing counts as a failed handler.
    public typealias LeaveCheck = (Entry) throws -> Bool

    public static func plan(
        from tree: RoutingTree,
        to destination: Destination,
        canLeave: LeaveCheck = { _ in true }
    ) throws(RouteFailure) -> [Instruction] {
        // Validation resolves each entry's node index once; planning then looks nothing up.
        let indices: [Int]
        switch destination {
        case .path(let entries):
            indices = try validate(entries, in: tree)
        case .anywhere(let entry):
            indices = [try validateAnywhere(entry, in: tree.graph)]
        }
        // The check is only used during this call; the planning state just cannot prove it.
        return try withoutActuallyEscaping(canLeave) { (canLeave) throws(RouteFailure) in
            switch destination {
            case .path(let entries):
                var planning = Planning(path: SimulatedPath(tree, destination: entries), canLeave: canLeave)
                try planning.planPath(to: entries, indices: indices)
                return planning.instructions
            case .anywhere(let entry):
                var planning = Planning(path: SimulatedPath(tree, destination: [entry]), canLeave: canLeave)
                try planning.planAnywhere(entry, index: indices[0])
                return planning.instructions
            }
        }
    }

    // MARK: Validation, before anything is planned

    /// The node index of each entry, once the destination is known to be a path of the graph.
    private static func validate(_ entries: [Entry], in tree: RoutingTree) throws(RouteFailure) -> [Int] {
        guard let first = entries.first else {
            throw RouteFailure(.invalid, "the destination is empty")
        }
        guard entries.count <= NavigationGraph.maximumDepth else {
            throw RouteFailure(.invalid, "the destination is \(entries.count) levels deep; paths are at most \(NavigationGraph.maximumDepth)")
        }
        if let malformed = entries.first(where: { !$0.isWellFormed }) {
            throw RouteFailure(.invalid, "malformed entry '\(malformed)': ids must be non-empty and numbers finite")
        }
        let root = tree.activePath[0]
        guard first == root else {
            throw RouteFailure(.unreachable, "root mismatch: the destination starts at '\(first)', the tree's root is '\(root)'")
        }
        var indices = [tree.path[0].nodeIndex]
        indices.reserveCapacity(entries.count)
        // By position: a for-in over the entries would copy (retain and release) each one.
        for depth in 1..<entries.count {
            indices.append(try validateStep(from: indices[depth - 1], to: entries[depth].id, in: tree.graph))
        }
        return indices
    }

    /// The index of `child`, which must be allowed below the node `parent`.
    private static func validateStep(from parent: Int, to child: NodeID, in graph: NavigationGraph) throws(RouteFailure) -> Int {
        guard let index = graph.index(of: child, below: parent) else {
            throw RouteFailure(.unreachable, "no node '\(child)' is declared")
        }
        guard graph.allows(index, below: parent) else {
            let kind = graph[index: parent].kind == .switch ? "switch node" : "node"
            throw RouteFailure(.unreachable, "'\(child)' is not a child of \(kind) '\(graph.id(at: parent))'")
        }
        return index
    }

    private static func validateAnywhere(_ entry: Entry, in graph: NavigationGraph) throws(RouteFailure) -> Int {
        guard entry.isWellFormed else {
            throw RouteFailure(.invalid, "malformed entry '\(entry)': ids must be non-empty and numbers finite")
        }
        guard let index = graph.index(of: entry.id) else {
            throw RouteFailure(.unreachable, "no node '\(entry.id)' is declared")
        }
        guard graph[index: index].isAnywhere else {
            throw RouteFailure(.unreachable, "'\(entry.id)' is not declared reachable from anywhere; route to its path instead")
        }
        return index
    }
}

/// The state of one planning run: the simulated path and the instructions so far.
private struct Planning {
    var path: SimulatedPath
    let canLeave: Planner.LeaveCheck
    var instructions: [Instruction] = []

    init(path: SimulatedPath, canLeave: @escaping Planner.LeaveCheck) {
        self.path = path
        self.canLeave = canLeave
    }

    /// `entries` is validated: it starts at the root and every step is allowed by the graph;
    /// `indices` are their nodes' indices.
    mutating func planPath(to entries: [Entry], indices: [Int]) throws(RouteFailure) {
        var depth = 1
        var reserved = false
        while true {
            while depth < entries.count, depth < path.count, path.entry(at: depth) == entries[depth] {
                depth += 1
            }
            if !reserved {
                // Past the common stem, at most every node is left and every entry entered.
                instructions.reserveCapacity(path.count - depth + entries.count - depth)
                reserved = true
            }
            try leaveUnmanaged(from: depth)
            guard depth < entries.count else { return }
            let target = entries[depth]
            if depth < path.count {
                // Only a managed node survives the leaving, so its parent is a switch node.
                instructions.append(.switch(path.entry(at: depth - 1), to: target))
                path.switchChild(atDepth: depth - 1, to: depth, index: indices[depth])
            } else {
                instructions.append(.enter(target))
                path.enter(depth, index: indices[depth])
            }
            depth += 1
        }
    }

    mutating func planAnywhere(_ entry: Entry, index: Int) throws(RouteFailure) {
        let top = path.topUnmanagedDepth
        if path.entry(at: top) == entry { return }
        if path.entry(at: top).id == entry.id {
            try leaveUnmanaged(from: top)
        }
        guard path.count < NavigationGraph.maximumDepth else {
            throw RouteFailure(.invalid, "entering '\(entry)' would make the active path deeper than \(NavigationGraph.maximumDepth) levels")
        }
        instructions.append(.enter(entry))
        path.enter(0, index: index)
    }

    /// Leaves, bottom-up, every node from `depth` down that its parent does not manage.
    private mutating func leaveUnmanaged(from depth: Int) throws(RouteFailure) {
        var shallowestLeft: Int?
        for index in stride(from: path.count - 1, through: depth, by: -1) where !path.isManaged(at: index) {
            let entry = path.entry(at: index)
            try checkLeavable(entry)
            instructions.append(.leave(entry))
            shallowestLeft = index
        }
        if let shallowestLeft {
            path.truncate(to: shallowestLeft)
        }
    }

    private func checkLeavable(_ entry: Entry) throws(RouteFailure) {
        let allowed: Bool
        do {
            allowed = try canLeave(entry)
        } catch {
            throw RouteFailure.vetoFailed(entry, error)
        }
        guard allowed else { throw RouteFailure.blocked(entry) }
    }
}
