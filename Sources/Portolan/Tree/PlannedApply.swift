/// Applying a planned route's steps (`PlannedRoute`): on the tree the plan was made from, as the
/// plan's earlier steps left it, a step uses the node the planner resolved rather than finding
/// it by id and validating the instruction again; the limits (depth, copies) are still checked,
/// since they are the tree's to enforce. On a tree that changed otherwise meanwhile (a host's
/// report, another route, a copy that went its own way) the generation differs and the step is
/// applied as `apply(_:)` applies any instruction, validated, and refused as it would be.
extension RoutingTree {
    /// Applies `route`'s step `index`, or throws and changes nothing.
    public mutating func apply(_ route: borrowing PlannedRoute, step index: Int) throws(TreeUpdateError) {
        guard generation == route.generation(before: index) else {
            try apply(route.instructions[index])
            return
        }
        let step = route.steps[index]
        switch step.kind {
        case .leave where step.depth > 0 && step.depth == activePath.count - 1 && !isManaged(atDepth: step.depth):
            // The leaf itself: removed without reading its entry. Any other planned leave is
            // searched for as `apply(_:)` does (a managed copy of it may stand deeper).
            truncate(to: step.depth)
        case .enter:
            if case .enter(let entry) = route.instructions[index] {
                try enter(entry, index: step.target)
            } else {
                try apply(route.instructions[index])
            }
        case .switch:
            if case .switch(let switchNode, let target) = route.instructions[index] {
                try switchTo(target, in: switchNode, planned: step)
            } else {
                try apply(route.instructions[index])
            }
        case .leave, .update, .remove, .insert, .move:
            try apply(route.instructions[index])
        }
        generation = route.generation(after: index)
    }

    /// A planned switch of the deepest switch node uses the child the planner resolved; one with a
    /// switch node below it (a pushed copy of itself, say) is searched for as `apply(_:)` does.
    private mutating func switchTo(_ target: Entry, in switchNode: Entry, planned step: PlannedStep) throws(TreeUpdateError) {
        let slot = switches.count - 1
        guard slot >= 0, switches[slot].depth == step.depth else {
            try apply(.switch(switchNode, to: target))
            return
        }
        try switchTo(target, child: step.target, slot: slot, in: switchNode)
    }
}
