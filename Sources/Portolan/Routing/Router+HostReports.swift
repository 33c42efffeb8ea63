/// What the host changed by itself, reported to the router (`RoutingTree`'s host reports, each
/// the instruction the router would have run), and the tab stacks it drops after a logout.
extension Router {
    /// The host entered a node on top of the active leaf by itself.
    public func didEnter(_ entry: Entry) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didEnter(entry) }
    }

    /// The host left the deepest active node with this id by itself.
    public func didLeave(_ id: NodeID) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didLeave(id) }
    }

    /// The host took the deepest active entry equal to `entry` out of the top stack, from below
    /// its top screen, by itself.
    public func didRemove(_ entry: Entry) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didRemove(entry) }
    }

    /// The host switched a switch node on the active path to another child by itself.
    public func didSwitch(_ switchID: NodeID, to child: NodeID) throws(TreeUpdateError) {
        try report { tree throws(TreeUpdateError) in try tree.didSwitch(switchID, to: child) }
    }

    /// Drops what the switch nodes of the active path keep for their other children (all of them,
    /// or those of `switchID`), as after a logout: each comes back as first shown. Returns the
    /// screens dropped; no handler runs and no event goes out, since none of them was showing.
    /// From any thread; from a route's handler it takes effect at once.
    @discardableResult
    public func resetTabs(of switchID: NodeID? = nil) throws(TreeUpdateError) -> [Entry] {
        try state.withLock { state throws(TreeUpdateError) in
            state.treeWillChangeFromOutside()
            return try state.tree.resetTabs(of: switchID)
        }
    }

    /// Changes the tree now, from any thread; the event goes out on the router's thread, where
    /// observers run (a host's read its Lua state): from another thread it is handed over.
    private func report(_ change: (inout RoutingTree) throws(TreeUpdateError) -> Instruction) throws(TreeUpdateError) {
        let instruction = try state.withLock { state throws(TreeUpdateError) in
            state.treeWillChangeFromOutside()
            return try change(&state.tree)
        }
        if thread.isCurrent {
            eventHub.emit(.hostReported(instruction))
        } else {
            thread.submit { self.eventHub.emit(.hostReported(instruction)) }
        }
    }
}
