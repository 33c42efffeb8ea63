import Portolan

/// The states found so far, in the order breadth-first search met them, and the next level to
/// expand. A visited state keeps its fingerprint and its path, not its snapshot: the search
/// places each edge's target by fingerprint, and whoever runs the level (`Explorer`, or the merge
/// of shards) keeps what it needs of the new ones.
struct BreadthFirstSearch {
    var states = VisitedStates()
    var known: [UInt64: Int]
    /// The indices of the states met at the level being built, to expand next.
    var frontier: [Int]
    /// Every action's edge, when the report is to keep them (`ExploreOptions.keepsEdges`).
    var edges: [ExploreReport.Edge] = []
    let keepsEdges: Bool
    /// Actions run, kept or not as edges.
    var actionsRun = 0
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
    init(start: ExpansionRecord.Target, limit: Int, keepsEdges: Bool = true) {
        states.append(path: start.path, fingerprint: start.fingerprint, depth: 0, parent: nil)
        known = [start.fingerprint: 0]
        frontier = [0]
        self.limit = limit
        self.keepsEdges = keepsEdges
    }

    /// States met, kept or not: what the fingerprints' odds of a collision are counted over.
    var statesMet: Int { states.count + dropped.count }

    /// Takes in what one state's actions did; the states must come in the order of their indices.
    /// The edges (by their place in the record) whose targets were kept as new states, with the
    /// index each was given.
    @discardableResult
    mutating func add(_ record: ExpansionRecord, depth: Int) -> [(edge: Int, index: Int)] {
        let from = record.index
        states.setExpanded(from, record.isWhole)
        findings += record.findings
        if record.cutByTime { cutByTime += 1 }
        if record.notExpanded != nil { unrestored += 1 }
        if record.isWhole && record.rechecked { rechecked += 1 }
        var successors: Set<UInt64> = []
        var kept: [(edge: Int, index: Int)] = []
        for (position, edge) in record.edges.enumerated() {
            if let target = edge.target, target.fingerprint != states.fingerprint(of: from) { successors.insert(target.fingerprint) }
            let (to, isNew) = place(edge.target, from: from, by: edge.action, depth: depth)
            if isNew, let to { kept.append((position, to)) }
            statistics.count(edge.action, ending: edge.ending, isNew: isNew)
            actionsRun += 1
            if keepsEdges { edges.append(.init(from: from, action: edge.action, to: to)) }
        }
        if record.isWhole { statistics.countOutDegree(successors.count) }
        return kept
    }

    /// The index of `target`, kept as a new state if it is one and the limit allows; whether it
    /// was met for the first time.
    private mutating func place(_ target: ExpansionRecord.Target?, from: Int, by action: ExploreAction, depth: Int) -> (Int?, Bool) {
        guard let target else { return (nil, false) }
        if let index = known[target.fingerprint] { return (index, false) }
        guard states.count < limit else { return (nil, dropped.insert(target.fingerprint).inserted) }
        let index = states.count
        states.append(path: target.path, fingerprint: target.fingerprint, depth: depth, parent: (from, action))
        known[target.fingerprint] = index
        frontier.append(index)
        return (index, true)
    }
}
