import Portolan
import PortolanShipping

/// What an exploration reached, as coverage counts it (docs/scenarios.md, "Coverage"): the nodes
/// and edges on the explored states' active paths, the switch targets a tab tap or a route
/// switched to, and the URL patterns the explored URLs matched (as the patterns read them, before
/// the app's redirect rules). The coverage page shows it next to what the scenarios reached.
extension ExploreReport {
    public var coverageRecord: ScenarioCoverage? {
        guard let graph else { return nil }
        var record = ScenarioCoverage()
        for visited in states { record.add(path: visited.path.map(\.id), in: graph) }
        for edge in edges {
            guard let to = edge.to, to < states.count, edge.from < states.count else { continue }
            let before = states[edge.from].path, after = states[to].path
            for (index, entry) in after.enumerated() where index > 0 && graph[after[index - 1].id]?.kind == .switch {
                let switchID = after[index - 1].id
                let was = before.firstIndex { $0.id == switchID }.flatMap { $0 + 1 < before.count ? before[$0 + 1].id : nil }
                if was != entry.id, graph[switchID]?.declares(child: entry.id) == true {
                    record.switchTargets.insert(GraphEdgeID(from: switchID, to: entry.id))
                }
            }
            if case .url(let url) = edge.action, let resolution = try? graph.resolve(url: url) {
                record.patternHits[CoveredPattern(node: resolution.node, pattern: resolution.pattern), default: 0] += 1
            }
        }
        return record
    }

    /// The exploration's coverage of the app's graph.
    public var coverage: Coverage? {
        guard let graph, let record = coverageRecord else { return nil }
        return Coverage(graph: graph, records: [record])
    }
}
