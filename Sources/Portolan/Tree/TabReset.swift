/// Dropping the stacks that switch nodes keep for their other children (`keep = true`: a tab bar),
/// as after a logout, when the other tabs still hold the previous user's screens.
extension RoutingTree {
    /// Puts every child that a switch node of the active path keeps while another one is active
    /// back as it is when first shown: nothing open inside it, its declared context, and its own
    /// switch nodes at their initial children. With `switchID`, only the children of the deepest
    /// switch node of the active path with that id. The active path itself is not touched.
    ///
    /// Returns the screens dropped (those entered inside the kept children, in depth-first order);
    /// no handler runs for them: they were not showing. Throws `notASwitch` when `switchID` names
    /// no switch node of the active path, and changes nothing.
    @discardableResult
    public mutating func resetTabs(of switchID: NodeID? = nil) throws(TreeUpdateError) -> [Entry] {
        var slots = Array(switches.indices)
        if let switchID {
            guard let slot = deepestSwitch(where: { activePath[$0].id == switchID }) else { throw .notASwitch(switchID) }
            slots = [slot]
        }
        var dropped: [Entry] = []
        for slot in slots {
            for position in switches[slot].parked.indices {
                guard let kept = switches[slot].parked[position] else { continue }
                let fresh = LiveNode.fresh(Entry(kept.entry.id), index: kept.nodeIndex, isManaged: true, in: graph)
                guard kept != fresh else { continue }
                Self.collectScreens(of: kept, into: &dropped)
                switches[slot].parked[position] = fresh
            }
        }
        // What a switch back would bring has changed: plans made before must look again.
        generation = TreeGeneration.next()
        return dropped
    }

    /// The nodes below `node` that were entered rather than brought by a switch node, depth first.
    private static func collectScreens(of node: LiveNode, into screens: inout [Entry]) {
        for child in node.children {
            if !child.isManaged { screens.append(child.entry) }
            collectScreens(of: child, into: &screens)
        }
    }
}
