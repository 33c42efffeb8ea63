@testable import Portolan
import TestSupport

/// A random host report (didEnter, didLeave, didSwitch, valid or not), and what the tree must do with it.
extension RandomWalk {
    mutating func hostReport() -> String? {
        let before = tree
        let nodes = before.activeNodes
        switch random.below(3) {
        case 0:
            guard let leaf = nodes.last, let declaration = graph[leaf.entry.id] else { return "no active leaf" }
            let candidates = declaration.children + (declaration.kind == .screen ? graph.anywhereIDs : [])
            let id = random.chance(0.6) ? (random.pick(candidates) ?? randomDeclaredID()) : randomDeclaredID()
            let entry = Entry(random.chance(0.05) ? "ghost" : id, context: randomContext())
            trace.append("host didEnter \(entry)")
            let expected = graph[entry.id] != nil && leaf.kind == .screen && graph.allows(entry.id, below: leaf.entry.id)
            return hostOutcome(expected: expected, before: before) { tree throws(TreeUpdateError) in
                try tree.didEnter(entry)
            } arrival: { after in
                let path = after.activePath
                guard path.count > nodes.count, Array(path.prefix(nodes.count)) == before.activePath,
                    path[nodes.count] == entry,
                    after.activeNodes.dropFirst(nodes.count + 1).allSatisfy(\.isManaged)
                else { return "didEnter \(entry) ended at \(path)" }
                return nil
            }
        case 1:
            let id = random.chance(0.8) ? (random.pick(nodes.map(\.entry.id)) ?? "ghost") : randomDeclaredID()
            trace.append("host didLeave \(id)")
            let depth = nodes.lastIndex { $0.entry.id == id }
            let expected = depth.map { $0 > 0 && !nodes[$0].isManaged } ?? false
            return hostOutcome(expected: expected, before: before) { tree throws(TreeUpdateError) in
                try tree.didLeave(id)
            } arrival: { after in
                guard let depth, after.activePath == Array(before.activePath.prefix(depth)) else {
                    return "didLeave \(id) ended at \(after.activePath)"
                }
                return nil
            }
        default:
            let switches = nodes.filter { $0.kind == .switch }.map(\.entry.id)
            let switchID = random.chance(0.8) ? (random.pick(switches) ?? randomDeclaredID()) : randomDeclaredID()
            let declared = graph[switchID]?.children ?? []
            let child = random.chance(0.8) ? (random.pick(declared) ?? randomDeclaredID()) : randomDeclaredID()
            trace.append("host didSwitch \(switchID) -> \(child)")
            let depth = nodes.lastIndex { $0.entry.id == switchID && $0.kind == .switch }
            let target = depth.flatMap { nodes[$0].children.first { $0.entry.id == child } }
            return hostOutcome(expected: target != nil, before: before) { tree throws(TreeUpdateError) in
                try tree.didSwitch(switchID, to: child)
            } arrival: { after in
                // The child comes back as it was: its context and whatever was open inside it.
                guard let depth, let target,
                    after.activePath == Array(before.activePath.prefix(depth + 1)) + target.activeChain.map(\.entry)
                else { return "didSwitch \(switchID) -> \(child) ended at \(after.activePath)" }
                return nil
            }
        }
    }

    private mutating func hostOutcome(
        expected: Bool, before: RoutingTree,
        _ report: (inout RoutingTree) throws(TreeUpdateError) -> Instruction,
        arrival: (RoutingTree) -> String?
    ) -> String? {
        var after = before
        do {
            let instruction = try report(&after)
            trace.append("  -> \(instruction)")
            guard expected else { return "the tree accepted a report it should refuse" }
            if let violation = invariantViolation(of: after) ?? arrival(after) { return violation }
            tree = after
            return nil
        } catch {
            trace.append("  refused: \(error)")
            guard !expected else { return "the tree refused a valid report: \(error)" }
            return after == before ? nil : "a refused report changed the tree"
        }
    }
}
