@testable import Portolan
import TestSupport

/// What a walk draws: destinations (mostly valid, some invalid on purpose), contexts and vetoes.
extension RandomWalk {
    mutating func randomDestination() -> Destination {
        let anywhereIDs = graph.anywhereIDs
        switch random.below(100) {
        case 0..<55:
            return .path(validPath())
        case 55..<65:
            guard let id = random.pick(anywhereIDs) else { return .path(validPath()) }
            return .anywhere(Entry(id, context: randomContext()))
        case 65..<68:
            return .path([])
        case 68..<74:
            // An unknown id somewhere along a valid path.
            var entries = validPath()
            entries.insert(Entry("ghost\(random.below(3))"), at: 1 + random.below(entries.count))
            return .path(entries)
        case 74..<82:
            // Any declared node below a valid path: often not allowed there.
            return .path(validPath() + [Entry(randomDeclaredID(), context: randomContext())])
        case 82..<87:
            // Root mismatch: the root with a context, or a path that starts elsewhere.
            if random.chance(0.5) {
                return .path([Entry(graph.rootID, context: ["id": 1])] + validPath().dropFirst())
            }
            return .path(Array(validPath().dropFirst()) + [Entry(randomDeclaredID())])
        case 87..<91:
            var entries = validPath()
            let malformed = random.chance(0.5) ? Entry("") : Entry(entries[entries.count - 1].id, context: ["x": .number(.nan)])
            entries[random.below(entries.count)] = malformed
            return .path(entries)
        case 91..<96:
            return .anywhere(Entry(randomDeclaredID(), context: randomContext()))
        default:
            return .anywhere(random.chance(0.5) ? Entry("ghost") : Entry("", context: [:]))
        }
    }

    /// A path walked in the graph: from the root, or from a prefix of the active path (so it often
    /// shares a stem with where the tree is), down declared children and anywhere nodes.
    mutating func validPath() -> [Entry] {
        let active = tree.activePath
        var entries = random.chance(0.6) ? Array(active.prefix(1 + random.below(active.count))) : [tree.root.entry]
        var steps = 0
        while steps < 10, random.chance(0.8), let parent = entries.last.flatMap({ graph[$0.id] }) {
            var candidates = parent.children
            if parent.kind == .screen, random.chance(0.2) { candidates += graph.anywhereIDs }
            guard let id = random.pick(candidates) else { break }
            entries.append(Entry(id, context: randomContext()))
            steps += 1
        }
        return entries
    }

    mutating func randomContext() -> Context {
        guard random.chance(0.25) else { return [:] }
        let contexts: [Context] = [
            ["id": 1], ["id": 2], ["id": .number(1)], ["id": .number(2.5)], ["lang": "en"],
            ["id": 1, "lang": "en"], ["on": true], ["id": "1"],
        ]
        return random.pick(contexts) ?? [:]
    }

    mutating func randomDeclaredID() -> NodeID {
        random.pick(shape.ids) ?? graph.rootID
    }

    mutating func randomVeto() -> Veto {
        let onPath = tree.activePath.map(\.id)
        var ids: Set<NodeID> = []
        for _ in 0..<(1 + random.below(3)) {
            if let id = random.chance(0.7) ? random.pick(onPath) : random.pick(shape.ids) { ids.insert(id) }
        }
        switch random.below(10) {
        case 0: return .none
        case 1, 2: return .fail(ids)
        default: return .refuse(ids)
        }
    }
}
