/// The state of one planning run: the simulated path and the instructions so far.
///
/// The graph and the leave check are parameters, not properties: stored, they would be copied
/// (the graph) or would need an escaping closure and its allocation (the check) on every plan.
struct Planning {
    var path: SimulatedPath
    var instructions: [Instruction] = []
    /// What was resolved for each instruction (`PlannedRoute`), when `recordsSteps`.
    var steps: [PlannedStep] = []
    private let recordsSteps: Bool

    init(_ path: SimulatedPath, recordsSteps: Bool) {
        self.path = path
        self.recordsSteps = recordsSteps
    }

    /// Taken, not borrowed, so that the instruction moves into the plan instead of being copied.
    @inline(__always)
    private mutating func append(
        _ instruction: consuming Instruction, _ kind: PlannedStep.Kind, node: Int, depth: Int, target: Int
    ) {
        instructions.append(instruction)
        if recordsSteps {
            steps.append(PlannedStep(kind: kind, node: node, depth: depth, target: target))
        }
    }

    /// `entries` is validated: it starts at the root and every step is allowed by the graph;
    /// `indices` are their nodes' indices.
    mutating func planPath(
        to entries: [Entry], indices: [Int], in graph: NavigationGraph, canLeave: Planner.LeaveCheck
    ) throws(RouteFailure) {
        var depth = 1
        var reserved = false
        // The same screens by their nodes' keys, in another context: updated where they stand,
        // once what goes is left and before anything is entered. An entry with an equal copy
        // deeper is left and entered instead, so that an update always names the deepest copy
        // and means the same wherever it is applied (a copy of the plan, an undo, a host's tree).
        var updates: [Int] = []
        while true {
            while depth < entries.count, depth < path.count {
                let live = path.entry(at: depth)
                if live != entries[depth] {
                    guard graph.sharesKey(live, with: entries[depth], node: indices[depth]), !path.holds(live, below: depth)
                    else { break }
                    updates.append(depth)
                }
                depth += 1
            }
            if !reserved {
                // Past the common stem, at most every node is left and every entry entered.
                instructions.reserveCapacity(path.count - depth + entries.count - depth)
                if recordsSteps { steps.reserveCapacity(instructions.capacity) }
                reserved = true
            }
            // A switch node that keeps stacks switches away from its child without leaving what is
            // open inside it: the tree keeps it with the child.
            if !switchesKeepingStack(atDepth: depth, toward: entries, indices: indices, in: graph) {
                try leaveUnmanaged(from: depth, canLeave: canLeave)
            } else if let modal = firstAnywhereDepth(below: depth, in: graph) {
                // What is shown on top of the tab from anywhere (a modal) is no part of its stack.
                try leaveUnmanaged(from: modal, canLeave: canLeave)
            }
            if !updates.isEmpty {
                // Tested first: emptying the array unconditionally cost every plan's loop a call.
                for updated in updates {
                    planUpdate(atDepth: updated, to: updated, index: indices[updated])
                }
                updates.removeAll()
            }
            guard depth < entries.count else { return }
            let target = entries[depth]
            if depth < path.count {
                // Only a managed node survives the leaving, so its parent is a switch node.
                append(
                    .switch(path.entry(at: depth - 1), to: target), .switch,
                    node: indices[depth - 1], depth: depth - 1, target: indices[depth])
                path.switchChild(atDepth: depth - 1, to: depth, index: indices[depth], in: graph)
            } else {
                append(.enter(target), .enter, node: indices[depth], depth: depth, target: indices[depth])
                path.enter(depth, index: indices[depth], in: graph)
            }
            depth += 1
        }
    }

    /// Updates the node at `depth` in place to `destination[entry]`, the node `index`, with the
    /// earlier contexts `memory` leaves it. Restoring is planned even to an equal context: it
    /// still forgets the one restored, or back would restore it again and again.
    mutating func planUpdate(atDepth depth: Int, to entry: Int, index: Int, memory: ContextMemory = .keep) {
        let live = path.entry(at: depth)
        let updated = live.updated(to: path.destinationEntry(entry), memory)
        guard live != updated || memory == .restore else { return }
        append(.update(live, to: updated), .update, node: index, depth: depth, target: index)
        path.rename(atDepth: depth, to: entry)
    }

    /// Takes an edit of the top stack as the plan, asking each screen it leaves or removes whether
    /// it may go, in plan order.
    mutating func plan(_ edit: StackEdit, canLeave: Planner.LeaveCheck) throws(RouteFailure) {
        for (instruction, step) in zip(edit.instructions, edit.steps) {
            if step.kind == .leave || step.kind == .remove {
                try Self.checkLeavable(instruction.handlingNode, canLeave)
            }
            append(instruction, step.kind, node: step.node, depth: step.depth, target: step.target)
        }
    }

    mutating func planAnywhere(
        _ entry: Entry, index: Int, in graph: NavigationGraph, canLeave: Planner.LeaveCheck
    ) throws(RouteFailure) {
        let top = path.topUnmanagedDepth
        if path.entry(at: top) == entry { return }
        if path.entry(at: top).id == entry.id {
            try leaveUnmanaged(from: top, canLeave: canLeave)
        }
        let limits = graph.limits
        guard path.count < limits.maxDepth else {
            throw RouteFailure(.invalid, "entering '\(entry)': " + limits.depthMessage(path.count + 1))
        }
        if limits.countsCopies {
            let copies = (0..<path.count).count { path.entry(at: $0).id == entry.id } + 1
            guard copies <= limits.maxCopies else {
                throw RouteFailure(.invalid, "entering '\(entry)': " + limits.copiesMessage(copies, of: entry.id))
            }
        }
        append(.enter(entry), .enter, node: index, depth: path.count, target: index)
        path.enter(0, index: index, in: graph)
    }

    /// Whether the route diverges at `depth` by switching to another child of a switch node that
    /// keeps stacks (so nothing below `depth` is to be left).
    private func switchesKeepingStack(
        atDepth depth: Int, toward entries: [Entry], indices: [Int], in graph: NavigationGraph
    ) -> Bool {
        guard depth < entries.count, depth < path.count, path.isManaged(at: depth),
            path.entry(at: depth).id != entries[depth].id
        else { return false }
        // Above `depth` the path and the destination agree: the switch node is the destination's.
        return graph[index: indices[depth - 1]].keepsStacks
    }

    /// The shallowest node below `depth` entered from anywhere, if any.
    private func firstAnywhereDepth(below depth: Int, in graph: NavigationGraph) -> Int? {
        (depth + 1..<path.count).first { graph[path.entry(at: $0).id]?.isAnywhere == true }
    }

    /// Leaves, bottom-up, every node from `depth` down that its parent does not manage.
    private mutating func leaveUnmanaged(from depth: Int, canLeave: Planner.LeaveCheck) throws(RouteFailure) {
        var shallowestLeft: Int?
        for index in stride(from: path.count - 1, through: depth, by: -1) where !path.isManaged(at: index) {
            let entry = path.entry(at: index)
            try Self.checkLeavable(entry, canLeave)
            let node = recordsSteps ? path.nodeIndex(at: index) : 0
            append(.leave(entry), .leave, node: node, depth: index, target: node)
            shallowestLeft = index
        }
        if let shallowestLeft {
            path.truncate(to: shallowestLeft)
        }
    }

    private static func checkLeavable(_ entry: Entry, _ canLeave: Planner.LeaveCheck) throws(RouteFailure) {
        let allowed: Bool
        do {
            allowed = try canLeave(entry)
        } catch {
            throw RouteFailure(thrownBy: .canLeave(entry), error)
        }
        guard allowed else { throw RouteFailure.blocked(entry) }
    }
}
