import Portolan

/// What an exploration found and how far it went (docs/explore.md): the states it visited, the
/// edges between them, the findings (each first where breadth-first order met it, so with the
/// shortest way to it), and the limits it reached.
public struct ExploreReport: Sendable {
    /// A state as the report reads it (`VisitedStates` keeps it compact): its path and fingerprint,
    /// not its snapshot.
    public struct VisitedState: Sendable {
        /// The active path, root first, with contexts.
        public var path: [Entry]
        public var fingerprint: UInt64
        public var depth: Int
        /// The state it was first reached from and by which action; nil for the start.
        public var parent: (index: Int, action: ExploreAction)?
        public var expanded: Bool

        /// `root > a > b {id=1}`
        public var pathText: String { ExploreState.text(of: path) }
    }

    public struct Edge: Sendable, Hashable {
        public var from: Int
        public var action: ExploreAction
        /// The state the action led to; nil when it left one the exploration did not keep.
        public var to: Int?
    }

    public var app: String
    public var states = VisitedStates()
    public var edges: [Edge] = []
    /// Findings, by kind, then in the order exploration met them; repeats of one fault folded.
    public var findings: [ExploreFinding] = []
    /// How many more times each finding was seen (elsewhere, or from other states).
    public var repeats: [Int] = []
    /// The limits the run reached, each with what it left unexplored.
    public var limitsReached: [String] = []
    /// Actions run (those of `rechecked` states twice, to see that they are deterministic).
    public var transitions = 0
    /// Expanded states whose actions were each run twice, and one in how many deeper states is
    /// (`ExploreOptions.recheck`).
    public var rechecked = 0
    public var recheck = 1
    /// States met, those kept and those past the state limit: what the odds of two sharing a
    /// fingerprint are counted over.
    public var statesMet = 0
    /// What each kind of action did, and the spread of the states' out-degrees.
    public var statistics = ExploreStatistics()
    /// Declared nodes, in declaration order, and those the explored states showed.
    public var nodes: [NodeID] = []
    public var visitedNodes: Set<NodeID> = []
    public var from: String?
    /// The app's declared graph, which coverage is measured against.
    public var graph: NavigationGraph?
    /// The route the explorer tries to each node, for the repro of one no state showed.
    public var destinations: [NodeID: Destination] = [:]

    /// The actions from the start to state `index`: the shortest way there.
    public func actions(to index: Int) -> [ExploreAction] {
        var actions: [ExploreAction] = []
        var current = index
        var steps = 0
        while current < states.count, let parent = states[current].parent, steps <= states.count {
            actions.append(parent.action)
            current = parent.index
            steps += 1
        }
        return actions.reversed()
    }

    /// The chance that two of the states met share a fingerprint, so that one was taken for the
    /// other and not explored: about n²/2⁶⁵ for n states, as TLC estimates it.
    public var fingerprintCollisionOdds: Double {
        let met = Double(statesMet)
        return met * (met - 1) / 2 / 18_446_744_073_709_551_616
    }

    public func count(of kind: ExploreFinding.Kind) -> Int { findings.filter { $0.kind == kind }.count }
}
