/// What carrying a live tree to other rules (a reload's or a swap's carried tree, or a restore's
/// tree) changes, worked out once from the tree before and the tree carried: which screens go, in
/// the kept stacks and on the active path, where the active path goes once they left, and what
/// comes onto it. A screen counts by its name after the migrations' renames (`renamed`), so a
/// renamed screen, or one whose context a migration changed, stays.
public struct CarryDifference: Sendable, Equatable {
    /// The kept stacks' screens (what the switches on the active path keep while another child is
    /// active, with everything below it) that the carried tree no longer holds, as `leave`
    /// instructions, each stack bottom-up. A screen counts as many times as the carried tree
    /// still holds it, the active path's first: a moved one stays, and of copies cut by a lowered
    /// limit the deepest go, as the carrier cuts them.
    public let keptLeaving: [Instruction]
    /// The active path's unmanaged screens past the part the carried tree keeps (`keptDepth`),
    /// bottom-up: each leaves by the rules that entered it.
    public let activeLeaving: [Instruction]
    /// Where the active path goes once `activeLeaving` left: its prefix down to the shallowest
    /// unmanaged node past the part kept (a route there leaves exactly those screens); nil when
    /// none leaves.
    public let departure: Destination?
    /// What the carry brings onto the active path, as the new rules' instructions: the switch to
    /// the child that replaced an active one the rules no longer have, then, top-down, each screen
    /// past the part kept that had left the active path and stands on it again (a migration moved
    /// it there). A kept stack's screens that the switch shows were never left, so they are not
    /// entered, as a route's switch does not enter them. The carried tree holds all of these
    /// already: only their handlers are left to run (`Router.enterCarried`).
    public let arrivals: [Instruction]

    public init(from tree: RoutingTree, to carried: RoutingTree, renamed: [NodeID: NodeID] = [:]) {
        let old = tree.activeNodes, new = carried.activeNodes
        let depth = Self.keptDepth(of: tree, in: carried, renamed: renamed)
        keptLeaving = Self.keptLeaving(old, to: carried, renamed: renamed)
        activeLeaving = old[depth...].reversed().filter { !$0.isManaged }.map { .leave($0.entry) }
        // The root stays whatever the rules: a route never leaves it.
        var leavingFrom = max(1, depth)
        while leavingFrom < old.count, old[leavingFrom].isManaged { leavingFrom += 1 }
        departure = leavingFrom < old.count ? .path(Array(tree.activePath[..<leavingFrom])) : nil
        arrivals = Self.arrivals(old, new, keptDepth: depth, renamed: renamed)
    }

    /// How many nodes from the root the carried active path keeps of `tree`'s: the same entries,
    /// or the same screens under the names `renamed` gave them. A screen that moved is past it.
    static func keptDepth(of tree: RoutingTree, in carried: RoutingTree, renamed: [NodeID: NodeID]) -> Int {
        let old = tree.activePath, new = carried.activePath
        var depth = 0
        while depth < old.count, depth < new.count,
            old[depth] == new[depth] || (renamed[old[depth].id] == new[depth].id && old[depth].context == new[depth].context)
        {
            depth += 1
        }
        return depth
    }

    private static func keptLeaving(_ active: [LiveNode], to carried: RoutingTree, renamed: [NodeID: NodeID]) -> [Instruction] {
        func name(_ node: LiveNode) -> NodeID { renamed[node.entry.id] ?? node.entry.id }
        var remaining: [NodeID: Int] = [:]
        for node in carried.root.topDown where !node.isManaged { remaining[node.entry.id, default: 0] += 1 }
        for node in active where !node.isManaged { remaining[name(node), default: 0] -= 1 }
        var gone: [Instruction] = []
        for node in active where node.kind == .switch {
            for (position, stack) in node.children.enumerated() where position != node.activeIndex {
                for kept in stack.topDown where !kept.isManaged {
                    if remaining[name(kept), default: 0] > 0 {
                        remaining[name(kept), default: 0] -= 1
                    } else {
                        gone.append(.leave(kept.entry))
                    }
                }
            }
        }
        return gone.reversed()
    }

    private static func arrivals(_ old: [LiveNode], _ new: [LiveNode], keptDepth depth: Int, renamed: [NodeID: NodeID]) -> [Instruction] {
        guard depth < new.count else { return [] }
        var instructions: [Instruction] = []
        if depth > 0, new[depth].isManaged {
            instructions.append(.switch(new[depth - 1].entry, to: new[depth].entry))
        }
        var departed: [NodeID: Int] = [:]
        for node in old.dropFirst(depth) where !node.isManaged { departed[renamed[node.entry.id] ?? node.entry.id, default: 0] += 1 }
        for node in new[depth...] where !node.isManaged && departed[node.entry.id, default: 0] > 0 {
            departed[node.entry.id, default: 0] -= 1
            instructions.append(.enter(node.entry))
        }
        return instructions
    }
}
