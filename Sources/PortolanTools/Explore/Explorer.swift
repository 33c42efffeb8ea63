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

    /// Explores, telling `progress` how far it has gone after each batch of states.
    public func run(progress: (@Sendable (ExploreProgress) -> Void)? = nil) async throws(HostError) -> ExploreReport {
        let clock = ContinuousClock()
        let started = clock.now
        // Bounded before it becomes a whole number: a NaN or a huge limit must not trap.
        let seconds = options.seconds.isFinite ? max(0, min(options.seconds, 1e9)) : 300
        let deadline = started + .milliseconds(Int64((seconds * 1000).rounded()))
        let setup = try await ExploreSetup.prepare(app: app, options: options, from: from)
        var search = BreadthFirstSearch(start: setup.start, limit: options.states)
        let batch = ExploreBatch(
            app: app, catalog: setup.catalog, options: options, startFingerprint: setup.start.fingerprint, deadline: deadline)
        var depth = 0
        while !search.frontier.isEmpty, depth < options.depth {
            let level = search.frontier
            search.frontier = []
            await Self.expand(level, depth: depth, into: &search, batch: batch) { search, left in
                progress?(ExploreProgress(
                    depth: depth, statesKept: search.states.count, queued: left + search.frontier.count,
                    actions: search.edges.count, elapsed: clock.now - started))
            }
            depth += 1
        }
        return ExploreReporting.report(
            app: app, search: search, catalog: setup.catalog, options: options, depth: depth,
            from: from == nil ? nil : setup.start.pathText)
    }

    /// Expands a level in fixed batches, `jobs` at a time, and adds each batch to the search in the
    /// level's order once those before it are in: the report is the same whichever batch ends
    /// first, and a level's edges (each target a whole state) are never all held at once.
    /// `added` is told after each batch how many of the level's states are still to come.
    private static func expand(
        _ level: [(index: Int, state: ExploreState)], depth: Int, into search: inout BreadthFirstSearch,
        batch: ExploreBatch, added: (BreadthFirstSearch, Int) -> Void
    ) async {
        let size = batch.options.batchSize
        let batches = stride(from: 0, to: level.count, by: size).map { Array(level[$0..<min($0 + size, level.count)]) }
        var finished: [Int: [ExpandedState]] = [:]
        var nextToAdd = 0, statesLeft = level.count
        await withTaskGroup(of: (Int, [ExpandedState]).self) { group in
            var next = 0
            while next < batches.count, next < batch.options.jobs {
                let position = next, states = batches[next]
                group.addTask { (position, await batch.expand(states, depth: depth)) }
                next += 1
            }
            while let (position, expanded) = await group.next() {
                finished[position] = expanded
                while let ready = finished.removeValue(forKey: nextToAdd) {
                    for state in ready { search.add(state, depth: depth + 1) }
                    statesLeft -= ready.count
                    nextToAdd += 1
                    added(search, statesLeft)
                }
                if next < batches.count {
                    let following = next, states = batches[next]
                    group.addTask { (following, await batch.expand(states, depth: depth)) }
                    next += 1
                }
            }
        }
    }
}
