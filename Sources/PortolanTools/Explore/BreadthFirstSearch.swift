import Portolan

/// The states found so far, in the order breadth-first search met them, and the next level to
/// expand. A visited state keeps its fingerprint and its path, not its snapshot: only the
/// frontier holds whole states, for the next level's restores, and an edge's target is dropped
/// as soon as the search has placed it.
struct BreadthFirstSearch {
    var states: [ExploreReport.VisitedState]
    var known: [UInt64: Int]
    var frontier: [(index: Int, state: ExploreState)]
    var edges: [ExploreReport.Edge] = []
    let limit: Int
    /// Fingerprints of the new states met past the state limit, not kept.
    var dropped: Set<UInt64> = []
    /// The expansions' findings, in the order of their states.
    var findings: [ExploreFinding] = []
    var statistics = ExploreStatistics()
    /// States the time limit cut (not explored, or not wholly), and those the restore did not give back.
    var cutByTime = 0
    var unrestored = 0
    /// States whose actions were each run twice, for nondeterminism.
    var rechecked = 0

    init(start: ExploreState, limit: Int) {
        states = [.init(path: start.path, fingerprint: start.fingerprint, depth: 0, parent: nil, expanded: false)]
        known = [start.fingerprint: 0]
        frontier = [(0, start)]
        self.limit = limit
    }

    /// States met, kept or not: what the fingerprints' odds of a collision are counted over.
    var statesMet: Int { states.count + dropped.count }

    /// Takes in what one state's actions did; the states must come in the order of their indices.
    mutating func add(_ expanded: ExpandedState, depth: Int) {
        let from = expanded.index
        let whole = expanded.notExpanded == nil && !expanded.cutByTime
        states[from].expanded = whole
        findings += expanded.findings
        if expanded.cutByTime { cutByTime += 1 }
        if expanded.notExpanded != nil { unrestored += 1 }
        if whole && expanded.rechecked { rechecked += 1 }
        var successors: Set<UInt64> = []
        for edge in expanded.edges {
            if let target = edge.target, target.fingerprint != states[from].fingerprint { successors.insert(target.fingerprint) }
            let (to, isNew) = place(edge.target, from: from, by: edge.action, depth: depth)
            statistics.count(edge.action, result: edge.result, isNew: isNew)
            edges.append(.init(from: from, action: edge.action, to: to))
        }
        if whole { statistics.countOutDegree(successors.count) }
    }

    /// The index of `target`, kept as a new state if it is one and the limit allows; whether it
    /// was met for the first time.
    private mutating func place(_ target: ExploreState?, from: Int, by action: ExploreAction, depth: Int) -> (Int?, Bool) {
        guard let target else { return (nil, false) }
        if let index = known[target.fingerprint] { return (index, false) }
        guard states.count < limit else { return (nil, dropped.insert(target.fingerprint).inserted) }
        let index = states.count
        states.append(.init(path: target.path, fingerprint: target.fingerprint, depth: depth, parent: (from, action), expanded: false))
        known[target.fingerprint] = index
        frontier.append((index, target))
        return (index, true)
    }
}
