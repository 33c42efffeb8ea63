@testable import Portolan
import TestSupport

/// A route to a random destination, under a random `canLeave` veto, and what DESIGN.md promises of it.
extension RandomWalk {
    mutating func route(veto: Veto) -> String? {
        let before = tree
        let destination = randomDestination()
        trace.append("route to \(destination) (\(veto))")
        let free = Result { () throws(RouteFailure) in try Planner.plan(from: before, to: destination) }
        var asked: [Entry] = []
        let vetoed = Result { () throws(RouteFailure) in
            try Planner.plan(from: before, to: destination) { entry in
                asked.append(entry)
                guard veto.ids.contains(entry.id) else { return true }
                if case .fail = veto { throw Refusal() }
                return false
            }
        }

        // Validation comes first and is the same whatever canLeave says.
        if let expected = expectedFailure(destination) {
            return invalidDestinationViolation(expected, free: free, vetoed: vetoed, asked: asked, before: before)
        }

        let plan: [Instruction]
        switch free {
        case .success(let instructions):
            plan = instructions
        case .failure(let failure):
            return "a valid destination failed: \(failure)"
        }
        trace.append("  plan: \(plan.map(\.description))")

        if let violation = sizeViolation(of: plan, before: before, destination: destination) { return violation }

        // Vetoes: the first leave of a refused node stops the plan, and nothing past it is asked.
        let leaves = plan.compactMap { instruction -> Entry? in
            if case .leave(let entry) = instruction { return entry }
            return nil
        }
        if let refused = leaves.firstIndex(where: { veto.ids.contains($0.id) }) {
            guard case .failure(let failure) = vetoed else {
                return "the veto (\(veto)) let through a plan that leaves \(leaves[refused])"
            }
            guard failure.kind == veto.expectedKind, failure.instruction == .leave(leaves[refused]),
                failure.executed.isEmpty
            else {
                return "a plan vetoed at \(leaves[refused]) failed as \(failure)"
            }
            guard asked == Array(leaves[...refused]) else {
                return "a vetoed plan asked canLeave of \(asked), expected \(Array(leaves[...refused]))"
            }
            trace.append("  blocked: \(failure)")
            return tree == before ? nil : "a vetoed plan changed the tree"
        }
        guard vetoed == free else {
            return "a veto (\(veto)) that refuses none of the leaves changed the outcome: \(vetoed)"
        }
        guard asked == leaves else {
            return "canLeave was asked of \(asked), but the plan leaves \(leaves)"
        }

        return appliedPlanViolation(plan, from: before, to: destination)
    }

    /// A destination DESIGN.md calls invalid fails as `expected`, plainly, whatever `canLeave` says,
    /// without asking it or changing the tree.
    private func invalidDestinationViolation(
        _ expected: RouteFailure.Kind, free: Result<[Instruction], RouteFailure>, vetoed: Result<[Instruction], RouteFailure>,
        asked: [Entry], before: RoutingTree
    ) -> String? {
        guard case .failure(let failure) = free else {
            return "planned \(free.success ?? []) for a destination that should fail as \(expected)"
        }
        guard failure.kind == expected, failure.instruction == nil, failure.executed.isEmpty,
            !failure.message.isEmpty
        else {
            return "expected a plain \(expected) failure, got \(failure)"
        }
        guard vetoed == free, asked.isEmpty else {
            return "an invalid destination asked canLeave \(asked) or failed otherwise: \(vetoed)"
        }
        return tree == before ? nil : "a failed plan changed the tree"
    }

    /// A plan is O(depth), and enters or switches to each destination entry at most once.
    private func sizeViolation(of plan: [Instruction], before: RoutingTree, destination: Destination) -> String? {
        // O(depth), where depth is the live tree's, not only the active path's: switching back to a
        // tab whose stack the host left open, then leaving that stack, is longer than the active path.
        let depth = Self.depth(of: before.root)
        let bound = 2 * (depth + destinationLength(destination)) + 1
        guard plan.count <= bound else {
            return "plan of \(plan.count) instructions exceeds 2 × (tree depth \(depth) + destination) + 1 = \(bound)"
        }
        // Each destination entry below the root is switched to or entered at most once.
        let arrivals = plan.filter { if case .leave = $0 { return false } else { return true } }.count
        guard arrivals <= max(destinationLength(destination) - 1, 1) else {
            return "plan switches or enters \(arrivals) times for a destination of \(destinationLength(destination))"
        }
        return nil
    }

    /// Runs `plan` on `before`, checking the tree after each instruction, then where it arrived,
    /// and that planning again does nothing.
    private mutating func appliedPlanViolation(_ plan: [Instruction], from before: RoutingTree, to destination: Destination) -> String? {
        var after = before
        for instruction in plan {
            do {
                try after.apply(instruction)
            } catch {
                return "applying \(instruction) of the plan \(plan.map(\.description)) threw: \(error)"
            }
            if let violation = invariantViolation(of: after) {
                return "after \(instruction): \(violation)"
            }
        }
        tree = after

        if let violation = arrivalViolation(destination, before: before, after: after, plan: plan) {
            return violation
        }
        switch Result(catching: { () throws(RouteFailure) in try Planner.plan(from: after, to: destination) }) {
        case .success(let again) where again.isEmpty:
            return nil
        case .success(let again):
            return "planning again right after arriving is not idempotent: \(again.map(\.description))"
        case .failure(let failure):
            return "planning again right after arriving failed: \(failure)"
        }
    }

    /// The number of nodes on the longest root-to-leaf chain of the live tree.
    private static func depth(of node: LiveNode) -> Int {
        1 + (node.children.map { depth(of: $0) }.max() ?? 0)
    }

    private func destinationLength(_ destination: Destination) -> Int {
        switch destination {
        case .path(let entries), .reset(let entries): return entries.count
        case .anywhere, .push, .live, .update, .remove, .replace: return 1
        }
    }

    /// The failure DESIGN.md promises for a destination, before anything is planned; nil if valid.
    private func expectedFailure(_ destination: Destination) -> RouteFailure.Kind? {
        switch destination {
        case .path(let entries):
            guard let first = entries.first else { return .invalid }
            if entries.contains(where: { !$0.isWellFormed }) { return .invalid }
            guard first == tree.root.entry else { return .unreachable }
            for (parent, child) in zip(entries, entries.dropFirst()) where !graph.allows(child.id, below: parent.id) {
                return .unreachable
            }
            return nil
        case .anywhere(let entry):
            guard entry.isWellFormed else { return .invalid }
            guard let declaration = graph[entry.id], declaration.isAnywhere else { return .unreachable }
            return nil
        case .push, .live, .update, .reset, .remove, .replace:
            // This walk generates none of these (RepeatedScreenPropertyTests walk pushes).
            return nil
        }
    }

    /// Where a successful plan must have left the tree.
    private func arrivalViolation(_ destination: Destination, before: RoutingTree, after: RoutingTree, plan: [Instruction]) -> String? {
        let nodes = after.activeNodes
        guard nodes.map(\.entry) == after.activePath else { return "activeNodes and activePath disagree" }
        switch destination {
        case .path(let entries):
            guard Array(after.activePath.prefix(entries.count)) == entries else {
                return "arrived at \(after.activePath) instead of \(entries)"
            }
            if let stray = nodes.dropFirst(entries.count).first(where: { !$0.isManaged }) {
                return "\(stray.entry) is below the destination's end and not managed by its parent"
            }
            if before.activePath == entries, !plan.isEmpty { return "routing to where you are did something" }
            return nil
        case .anywhere(let entry):
            // Compared with the top of the active path: the leaf, or the switch node whose managed
            // children the leaf belongs to (an anywhere switch entered before).
            let oldNodes = before.activeNodes
            let top = oldNodes.lastIndex(where: { !$0.isManaged }) ?? 0
            if oldNodes[top].entry == entry {
                return plan.isEmpty ? nil : "routing anywhere to the node on top did something"
            }
            // The same node with another context is left first; anything else is entered on top.
            let old = before.activePath
            let kept = oldNodes[top].entry.id == entry.id ? Array(old.prefix(top)) : old
            guard after.activePath.count > kept.count, Array(after.activePath.prefix(kept.count)) == kept,
                after.activePath[kept.count] == entry
            else {
                return "anywhere \(entry) was not entered on top of \(kept): at \(after.activePath)"
            }
            if let stray = nodes.dropFirst(kept.count + 1).first(where: { !$0.isManaged }) {
                return "\(stray.entry) is below the entered \(entry) and not managed by its parent"
            }
            return nil
        case .push, .live, .update, .reset, .remove, .replace:
            return nil
        }
    }
}
