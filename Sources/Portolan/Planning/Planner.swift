/// Plans a whole route up front: Portus's algorithm, made total.
///
/// From the first depth where the active path and the destination differ, it leaves (bottom-up)
/// every node below that its parent does not manage, switches when the parent there is a switch
/// node, and enters the rest. It simulates each step on a copy of the active path, so it reads the
/// tree once and runs in O(depth); and it fails with a typed `RouteFailure` before anything runs
/// where Portus would crash or loop.
public enum Planner {
    /// Asks a node whether it may be left now; throwing counts as a failed handler.
    public typealias LeaveCheck = (Entry) throws -> Bool

    public static func plan(
        from tree: RoutingTree,
        to destination: Destination,
        canLeave: LeaveCheck = { _ in true }
    ) throws(RouteFailure) -> [Instruction] {
        switch destination {
        case .path(let entries):
            try validate(entries, in: tree)
        case .anywhere(let entry):
            try validateAnywhere(entry, in: tree.graph)
        }
        // The check is only used during this call; the planning state just cannot prove it.
        return try withoutActuallyEscaping(canLeave) { (canLeave) throws(RouteFailure) in
            var planning = Planning(path: SimulatedPath(tree), canLeave: canLeave)
            switch destination {
            case .path(let entries):
                try planning.planPath(to: entries)
            case .anywhere(let entry):
                try planning.planAnywhere(entry)
            }
            return planning.instructions
        }
    }

    // MARK: Validation, before anything is planned

    private static func validate(_ entries: [Entry], in tree: RoutingTree) throws(RouteFailure) {
        guard let first = entries.first else {
            throw RouteFailure(.invalid, "the destination is empty")
        }
        guard entries.count <= NavigationGraph.maximumDepth else {
            throw RouteFailure(.invalid, "the destination is \(entries.count) levels deep; paths are at most \(NavigationGraph.maximumDepth)")
        }
        if let malformed = entries.first(where: { !$0.isWellFormed }) {
            throw RouteFailure(.invalid, "malformed entry '\(malformed)': ids must be non-empty and numbers finite")
        }
        let root = tree.root.entry
        guard first == root else {
            throw RouteFailure(.unreachable, "root mismatch: the destination starts at '\(first)', the tree's root is '\(root)'")
        }
        for (parent, child) in zip(entries, entries.dropFirst()) {
            try validateStep(from: parent.id, to: child.id, in: tree.graph)
        }
    }

    private static func validateStep(from parent: NodeID, to child: NodeID, in graph: NavigationGraph) throws(RouteFailure) {
        guard graph[child] != nil else {
            throw RouteFailure(.unreachable, "no node '\(child)' is declared")
        }
        guard graph.allows(child, below: parent) else {
            let kind = graph[parent]?.kind == .switch ? "switch node" : "node"
            throw RouteFailure(.unreachable, "'\(child)' is not a child of \(kind) '\(parent)'")
        }
    }

    private static func validateAnywhere(_ entry: Entry, in graph: NavigationGraph) throws(RouteFailure) {
        guard entry.isWellFormed else {
            throw RouteFailure(.invalid, "malformed entry '\(entry)': ids must be non-empty and numbers finite")
        }
        guard let declaration = graph[entry.id] else {
            throw RouteFailure(.unreachable, "no node '\(entry.id)' is declared")
        }
        guard declaration.isAnywhere else {
            throw RouteFailure(.unreachable, "'\(entry.id)' is not declared reachable from anywhere; route to its path instead")
        }
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

    /// `entries` is validated: it starts at the root and every step is allowed by the graph.
    mutating func planPath(to entries: [Entry]) throws(RouteFailure) {
        var depth = 1
        while true {
            while depth < entries.count, depth < path.count, path[depth].entry == entries[depth] {
                depth += 1
            }
            try leaveUnmanaged(from: depth)
            guard depth < entries.count else { return }
            let target = entries[depth]
            if depth < path.count {
                // Only a managed node survives the leaving, so its parent is a switch node.
                instructions.append(.switch(path[depth - 1].entry, to: target))
                path.switchChild(atDepth: depth - 1, to: target)
            } else {
                instructions.append(.enter(target))
                path.enter(target)
            }
            depth += 1
        }
    }

    mutating func planAnywhere(_ entry: Entry) throws(RouteFailure) {
        let top = path.topUnmanagedDepth
        if path[top].entry == entry { return }
        if path[top].entry.id == entry.id {
            try leaveUnmanaged(from: top)
        }
        guard path.count < NavigationGraph.maximumDepth else {
            throw RouteFailure(.invalid, "entering '\(entry)' would make the active path deeper than \(NavigationGraph.maximumDepth) levels")
        }
        instructions.append(.enter(entry))
        path.enter(entry)
    }

    /// Leaves, bottom-up, every node from `depth` down that its parent does not manage.
    private mutating func leaveUnmanaged(from depth: Int) throws(RouteFailure) {
        var shallowestLeft: Int?
        for index in stride(from: path.count - 1, through: depth, by: -1) where !path[index].isManaged {
            let entry = path[index].entry
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
