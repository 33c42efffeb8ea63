import Portolan

/// What an exploration found and how far it went (docs/explore.md): the states it visited, the
/// edges between them, the findings (each first where breadth-first order met it, so with the
/// shortest way to it), and the limits it reached.
public struct ExploreReport: Sendable {
    public struct VisitedState: Sendable {
        public var state: ExploreState
        public var depth: Int
        /// The state it was first reached from and by which action; nil for the start.
        public var parent: (index: Int, action: ExploreAction)?
        public var expanded: Bool
    }

    public struct Edge: Sendable, Hashable {
        public var from: Int
        public var action: ExploreAction
        /// The state the action led to; nil when it left one the exploration did not keep.
        public var to: Int?
    }

    public var app: String
    public var states: [VisitedState] = []
    public var edges: [Edge] = []
    /// Findings, by kind, then in the order exploration met them; repeats of one fault folded.
    public var findings: [ExploreFinding] = []
    /// How many more times each finding was seen (elsewhere, or from other states).
    public var repeats: [Int] = []
    /// The limits the run reached, each with what it left unexplored.
    public var limitsReached: [String] = []
    /// Actions run (each twice, to see that it is deterministic).
    public var transitions = 0
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

    public func count(of kind: ExploreFinding.Kind) -> Int { findings.filter { $0.kind == kind }.count }
}
