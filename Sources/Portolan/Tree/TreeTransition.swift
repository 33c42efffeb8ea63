/// The instructions that take one tree's active path to another's, as a route would run them:
/// the nodes that differ are left bottom-up (a managed one is switched away from instead), then
/// the target's nodes are entered or switched to top-down. A restore runs them, each through its
/// handler, so that a host shows the restored screens; the kept stacks, which no instruction can
/// build, are set with the tree afterwards.
struct TreeTransition {
    /// The instructions, or nil when the target cannot be reached by them (it never happens for
    /// two trees of one graph; the bound stops a loop anyway).
    static func instructions(from start: RoutingTree, to target: RoutingTree) -> [Instruction]? {
        var tree = start
        var instructions: [Instruction] = []
        let goal = target.activePath
        let bound = 2 * (start.depth + goal.count) + 4
        while instructions.count <= bound {
            let path = tree.activePath
            var common = 0
            while common < path.count, common < goal.count, path[common] == goal[common] { common += 1 }
            if common == path.count, common == goal.count { return instructions }
            guard common > 0 else { return nil }
            let next: Instruction
            if common < path.count {
                next = step(leavingBelow: common, of: tree, toward: goal)
            } else {
                next = .enter(goal[common])
            }
            do {
                try tree.apply(next)
            } catch {
                return nil
            }
            instructions.append(next)
        }
        return nil
    }

    /// The next step where `tree` leaves the goal at `common`: leave the deepest unmanaged node
    /// at or below it, or, when every node there is managed, switch the first one.
    private static func step(leavingBelow common: Int, of tree: RoutingTree, toward goal: [Entry]) -> Instruction {
        var depth = tree.depth - 1
        while depth >= common {
            if !tree.isManaged(atDepth: depth) { return .leave(tree.activePath[depth]) }
            depth -= 1
        }
        let switchNode = tree.activePath[common - 1]
        return .switch(switchNode, to: common < goal.count ? goal[common] : tree.activePath[common])
    }
}
