import Portolan
import PortolanLua

/// `portolan explore` as a Swift API (docs/explore.md): explores an app breadth first from its
/// initial state, or from a snapshot, restoring each state with the snapshot restore, and reports
/// what it found.
///
/// ```swift
/// let report = try await Explorer(app: "Examples/movies/app.lua").run()
/// ```
public struct Explorer: Sendable {
    public let app: String
    public let options: ExploreOptions
    /// A snapshot to start from, instead of the app's initial state.
    public let from: [UInt8]?

    public init(app: String, options: ExploreOptions = .init(), from: [UInt8]? = nil) {
        self.app = app
        self.options = options
        self.from = from
    }

    public func run() async throws(HostError) -> ExploreReport {
        let clock = ContinuousClock()
        // Bounded before it becomes a whole number: a NaN or a huge limit must not trap.
        let seconds = options.seconds.isFinite ? max(0, min(options.seconds, 1e9)) : 300
        let deadline = clock.now + .milliseconds(Int64((seconds * 1000).rounded()))
        let setup = try await ExploreSetup.prepare(app: app, options: options, from: from)
        var search = BreadthFirstSearch(start: setup.start, limit: options.states)
        let batch = ExploreBatch(app: app, catalog: setup.catalog, options: options, startKey: setup.start.key, deadline: deadline)
        var expansions: [ExpandedState] = []
        var depth = 0
        while !search.frontier.isEmpty, depth < options.depth {
            let level = search.frontier.map { (index: $0, state: search.states[$0].state) }
            search.frontier = []
            let expanded = await Self.expand(level, batchSize: options.batchSize, jobs: options.jobs, batch: batch)
            for state in expanded { search.add(state, depth: depth + 1) }
            expansions += expanded
            depth += 1
        }
        return ExploreReporting.report(
            app: app, search: search, expansions: expansions, catalog: setup.catalog, options: options, depth: depth,
            from: from == nil ? nil : setup.start.pathText)
    }

    /// Expands a level in fixed batches, `jobs` at a time, and gives the results in the level's order.
    private static func expand(
        _ level: [(index: Int, state: ExploreState)], batchSize: Int, jobs: Int, batch: ExploreBatch
    ) async -> [ExpandedState] {
        let batches = stride(from: 0, to: level.count, by: batchSize).map { Array(level[$0..<min($0 + batchSize, level.count)]) }
        var results = [[ExpandedState]](repeating: [], count: batches.count)
        await withTaskGroup(of: (Int, [ExpandedState]).self) { group in
            var next = 0
            while next < batches.count, next < jobs {
                let position = next, states = batches[next]
                group.addTask { (position, await batch.expand(states)) }
                next += 1
            }
            while let (position, expanded) = await group.next() {
                results[position] = expanded
                if next < batches.count {
                    let following = next, states = batches[next]
                    group.addTask { (following, await batch.expand(states)) }
                    next += 1
                }
            }
        }
        return results.flatMap { $0 }
    }
}

/// The states found so far, in the order breadth-first search met them, and the next level.
struct BreadthFirstSearch {
    var states: [ExploreReport.VisitedState]
    var known: [String: Int]
    var frontier: [Int]
    var edges: [ExploreReport.Edge] = []
    let limit: Int
    /// New states met past the state limit, not kept.
    var dropped: Set<String> = []

    init(start: ExploreState, limit: Int) {
        states = [.init(state: start, depth: 0, parent: nil, expanded: false)]
        known = [start.key: 0]
        frontier = [0]
        self.limit = limit
    }

    mutating func add(_ expanded: ExpandedState, depth: Int) {
        states[expanded.index].expanded = expanded.notExpanded == nil && !expanded.cutByTime
        for edge in expanded.edges {
            guard let target = edge.target else {
                edges.append(.init(from: expanded.index, action: edge.action, to: nil))
                continue
            }
            if let index = known[target.key] {
                edges.append(.init(from: expanded.index, action: edge.action, to: index))
            } else if states.count < limit {
                let index = states.count
                states.append(.init(state: target, depth: depth, parent: (expanded.index, edge.action), expanded: false))
                known[target.key] = index
                frontier.append(index)
                edges.append(.init(from: expanded.index, action: edge.action, to: index))
            } else {
                dropped.insert(target.key)
                edges.append(.init(from: expanded.index, action: edge.action, to: nil))
            }
        }
    }
}
