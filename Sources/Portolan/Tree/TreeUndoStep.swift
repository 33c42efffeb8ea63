/// What one instruction changed in a tree, kept so that the change can be reverted exactly: the
/// part of the active path it could change, as it was, and for a switch to another child the
/// switch node's own slot as it was.
///
/// A route keeps one per instruction it applies (`RouteUndoLog`) instead of a copy of the whole
/// tree, so its cost does not grow with the app: a copy shares the tree's arrays, and the first
/// change after it copied every array it touched, a switch node's slot for each of its declared
/// children included (100,000 of them in an app of 100,000 tabs).
struct TreeUndoStep: Sendable {
    /// The shallowest depth the instruction could change; everything above it stays.
    let depth: Int
    /// The active path from `depth` down, and the switch nodes standing there, as they were.
    let saved: SavedPath
    /// For a switch to another child: the switch node's slot in `switches`, the child that was
    /// active, and the slot of the child that became active with what it held (nil: nothing kept).
    let switched: Switched?

    /// A switch's slot as it was. A class: only a switch to a kept child makes one, and held
    /// inline it made every step, enters and leaves too, as large as a whole live node to copy.
    final class Switched: Sendable {
        let slot: Int, active: Int, position: Int
        let parked: LiveNode?

        init(slot: Int, active: Int, position: Int, parked: LiveNode?) {
            (self.slot, self.active, self.position, self.parked) = (slot, active, position, parked)
        }
    }

    /// The part of the active path a step keeps. Most steps are an enter, which keeps nothing, or
    /// the leave of the top screen, which keeps one entry: those two are kept without an array,
    /// since making and freeing three arrays was about a tenth of a route's instruction without
    /// handlers (Benchmarks/README.md, "Targets").
    enum SavedPath: Sendable {
        case nothing
        /// The deepest entry alone, no switch node standing at its depth.
        case top(Entry, nodeIndex: Int)
        case path(entries: [Entry], nodeIndices: [Int], switches: [SwitchState])
    }
}

extension RoutingTree {
    /// What `instruction` would change, read before it is applied. Costs what the instruction
    /// itself costs: the part of the path it leaves or parks, nothing for an enter.
    func undoStep(for instruction: Instruction) -> TreeUndoStep {
        switch instruction {
        case .enter:
            return suffix(from: activePath.count)
        case .update(let entry, _), .remove(let entry), .insert(_, under: let entry), .move(let entry, under: nil):
            // Nothing below the entry changes: undoing it puts back the path from there, as it was.
            return suffix(from: activePath.lastIndex(of: entry) ?? activePath.count)
        case .move(let entry, under: let upper?):
            let depths = [entry, upper].compactMap { activePath.lastIndex(of: $0) }
            return suffix(from: depths.min() ?? activePath.count)
        case .leave(let entry):
            var depth = activePath.count - 1
            while depth > 0, activePath[depth] != entry { depth -= 1 }
            return suffix(from: depth > 0 ? depth : activePath.count)
        case .switch(let switchNode, let target):
            guard let slot = deepestSwitch(where: { activePath[$0] == switchNode }) else {
                return suffix(from: activePath.count)
            }
            let state = switches[slot]
            guard let child = graph.index(of: target.id, below: nodeIndices[state.depth]),
                graph[index: child].parent == nodeIndices[state.depth]
            else { return suffix(from: activePath.count) }
            let position = graph[index: child].position
            guard position != state.active, state.parked.indices.contains(position) else {
                return suffix(from: state.depth + 1)
            }
            let switched = TreeUndoStep.Switched(slot: slot, active: state.active, position: position, parked: state.parked[position])
            return suffix(from: state.depth + 1, switched: switched)
        }
    }

    /// Puts back what `step`'s instruction changed. The tree must be as that instruction left it:
    /// the steps of a route are reverted newest first, from the tree as the route left it.
    mutating func revert(_ step: TreeUndoStep) {
        if step.depth < activePath.count {
            activePath.removeSubrange(step.depth...)
            nodeIndices.removeSubrange(step.depth...)
        }
        while let last = switches.last, last.depth >= step.depth { switches.removeLast() }
        if let switched = step.switched, switches.indices.contains(switched.slot) {
            switches[switched.slot].active = switched.active
            switches[switched.slot].parked[switched.active] = nil
            switches[switched.slot].parked[switched.position] = switched.parked
        }
        switch step.saved {
        case .nothing:
            break
        case .top(let entry, let nodeIndex):
            activePath.append(entry)
            nodeIndices.append(nodeIndex)
        case .path(let entries, let indices, let savedSwitches):
            activePath.append(contentsOf: entries)
            nodeIndices.append(contentsOf: indices)
            switches.append(contentsOf: savedSwitches)
        }
        generation = TreeGeneration.next()
    }

    private func suffix(
        from depth: Int, switched: TreeUndoStep.Switched? = nil
    ) -> TreeUndoStep {
        guard depth < activePath.count else {
            return TreeUndoStep(depth: depth, saved: .nothing, switched: switched)
        }
        var firstSwitch = switches.count
        while firstSwitch > 0, switches[firstSwitch - 1].depth >= depth { firstSwitch -= 1 }
        if depth == activePath.count - 1, firstSwitch == switches.count {
            return TreeUndoStep(depth: depth, saved: .top(activePath[depth], nodeIndex: nodeIndices[depth]), switched: switched)
        }
        let saved = TreeUndoStep.SavedPath.path(
            entries: Array(activePath[depth...]), nodeIndices: Array(nodeIndices[depth...]), switches: Array(switches[firstSwitch...]))
        return TreeUndoStep(depth: depth, saved: saved, switched: switched)
    }
}
