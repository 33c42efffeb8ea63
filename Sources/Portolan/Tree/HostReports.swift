/// What the host changed by itself (a back swipe, a tab tap), reported so the tree never drifts
/// from the UI. Each report names nodes by id; it becomes the instruction the router would have
/// run, applied with the same checks.
extension RoutingTree {
    /// The host entered a node on top of the active leaf by itself.
    @discardableResult
    public mutating func didEnter(_ entry: Entry) throws(TreeUpdateError) -> Instruction {
        let instruction = Instruction.enter(entry)
        try apply(instruction)
        return instruction
    }

    /// The host left the deepest active node with this id by itself (a back swipe, a dismissed modal).
    @discardableResult
    public mutating func didLeave(_ id: NodeID) throws(TreeUpdateError) -> Instruction {
        guard let entry = activePath.last(where: { $0.id == id }) else {
            throw .notOnActivePath(Entry(id))
        }
        let instruction = Instruction.leave(entry)
        try apply(instruction)
        return instruction
    }

    /// The host took the deepest active entry equal to `entry` out of the top stack by itself,
    /// from below the top screen (an app's own edit of its navigation stack): what stood on it
    /// stays. An entry, not an id: the copies of a pushed screen differ only by their contexts.
    @discardableResult
    public mutating func didRemove(_ entry: Entry) throws(TreeUpdateError) -> Instruction {
        let instruction = Instruction.remove(entry)
        try apply(instruction)
        return instruction
    }

    /// The host made `child` the active child of a switch node on the active path (a tab tap).
    /// The child keeps its context and whatever was open inside it.
    @discardableResult
    public mutating func didSwitch(_ switchID: NodeID, to child: NodeID) throws(TreeUpdateError) -> Instruction {
        guard let slot = deepestSwitch(where: { activePath[$0].id == switchID }) else {
            throw .notASwitch(switchID)
        }
        let state = switches[slot]
        let depth = state.depth
        let switchIndex = nodeIndices[depth]
        guard let childIndex = graph.index(of: child, below: switchIndex), graph[index: childIndex].parent == switchIndex else {
            throw .notAChild(child, ofSwitch: switchID)
        }
        let position = graph[index: childIndex].position
        let target = position == state.active ? activePath[depth + 1] : state.parked[position]?.entry ?? Entry(child)
        let instruction = Instruction.switch(activePath[depth], to: target)
        try apply(instruction)
        return instruction
    }
}
