extension RoutingTree {
    /// Routes that take a fresh tree of the same graph to this one: first into each child a switch
    /// node keeps away from the fresh state (a tab left deep in its stack), then to the active path.
    /// Empty when the tree is as fresh as the graph declares it.
    ///
    /// A recording started mid-session replays these first, so that its routes start where the
    /// session stood. What a route cannot rebuild is not: a switch's history of `back`.
    public var routesFromFreshTree: [Destination] {
        let root = self.root
        let fresh = LiveNode.fresh(root.entry, index: root.nodeIndex, isManaged: false, in: graph)
        guard root != fresh else { return [] }
        var routes: [Destination] = []
        appendRoutes(into: root, below: [], to: &routes)
        return routes
    }

    /// Routes into `node` (reached through `path`): its switches' kept children that are not
    /// fresh, deepest first, then the leaf of its active chain.
    private func appendRoutes(into node: LiveNode, below path: [Entry], to routes: inout [Destination]) {
        var chainPath = path
        for link in node.activeChain {
            chainPath.append(link.entry)
            guard link.kind == .switch else { continue }
            for (position, child) in link.children.enumerated() where position != link.activeIndex {
                let fresh = LiveNode.fresh(child.entry, index: child.nodeIndex, isManaged: true, in: graph)
                if child != fresh { appendRoutes(into: child, below: chainPath, to: &routes) }
            }
        }
        routes.append(.path(chainPath))
    }
}
