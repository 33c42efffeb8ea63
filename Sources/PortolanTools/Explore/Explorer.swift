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
        let run = try await explore(shard: nil, progress: progress) { _, _ in }
        return ExploreReporting.report(
            app: app, search: run.search, catalog: run.setup.catalog, options: options, depth: run.depth,
            from: from == nil ? nil : run.setup.start.pathText)
    }

    /// Explores one shard of the run (`ExploreShard`), and gives what its states' actions did for
    /// `ExploreMerge` to join with the other shards'.
    public func run(shard: ExploreShard, progress: (@Sendable (ExploreProgress) -> Void)? = nil) async throws(HostError) -> ExploreShardFile {
        var records: [(record: ExpansionRecord, depth: Int)] = []
        let run = try await explore(shard: shard, progress: progress) { record, depth in records.append((record, depth)) }
        return ExploreShardFile(shard: shard, app: app, options: options, catalog: run.setup.catalog, search: run.search, records: records)
    }

    /// The search itself, level by level, each record given to `keep` with the depth of its state.
    /// A shard, past its split level, keeps on only with its own share of that level.
    private func explore(
        shard: ExploreShard?, progress: (@Sendable (ExploreProgress) -> Void)?, keep: (ExpansionRecord, Int) -> Void
    ) async throws(HostError) -> (search: BreadthFirstSearch, setup: ExploreSetup, depth: Int) {
        let clock = ContinuousClock()
        let started = clock.now
        // Bounded before it becomes a whole number: a NaN or a huge limit must not trap.
        let seconds = options.seconds.isFinite ? max(0, min(options.seconds, 1e9)) : 300
        let deadline = started + .milliseconds(Int64((seconds * 1000).rounded()))
        let setup = try await ExploreSetup.prepare(app: app, options: options, from: from)
        var search = BreadthFirstSearch(
            start: .init(fingerprint: setup.start.fingerprint, path: setup.start.path), limit: options.states, keepsEdges: options.keepsEdges)
        let batch = ExploreBatch(
            app: app, catalog: setup.catalog, options: options, startFingerprint: setup.start.fingerprint, deadline: deadline)
        var level = [(index: 0, state: setup.start)]
        var depth = 0, split = false
        while !level.isEmpty, depth < options.depth {
            search.frontier = []
            var next: [(index: Int, state: ExploreState)] = []
            await Self.expand(level, depth: depth, batch: batch) { expanded in
                keep(expanded.record, depth)
                for placed in search.add(expanded.record, depth: depth + 1) {
                    if let whole = expanded.wholeTargets[safe: placed.edge] ?? nil { next.append((placed.index, whole)) }
                }
            } told: { statesLeft in
                progress?(ExploreProgress(
                    depth: depth, statesKept: search.states.count, queued: statesLeft + next.count,
                    actions: search.actionsRun, elapsed: clock.now - started))
            }
            depth += 1
            if let shard, !split, shard.splits(atLevelOf: next.count) {
                split = true
                next = next.filter { shard.owns(search.states.fingerprint(of: $0.index)) }
                search.frontier = next.map(\.index)
            }
            level = next
        }
        return (search, setup, depth)
    }

    /// Expands a level in fixed batches, `jobs` at a time, and gives each batch's states to `take`
    /// in the level's order once those before it are in: the search is the same whichever batch
    /// ends first, and a level's edges (each target a whole state) are never all held at once.
    /// `told` hears after each batch how many of the level's states are still to come.
    private static func expand(
        _ level: [(index: Int, state: ExploreState)], depth: Int, batch: ExploreBatch,
        take: (ExpandedState) -> Void, told: (Int) -> Void
    ) async {
        let size = batch.options.batchSize
        let batches = stride(from: 0, to: level.count, by: size).map { Array(level[$0..<min($0 + size, level.count)]) }
        var finished: [Int: [ExpandedState]] = [:]
        var nextToTake = 0, statesLeft = level.count
        await withTaskGroup(of: (Int, [ExpandedState]).self) { group in
            var next = 0
            while next < batches.count, next < batch.options.jobs {
                let position = next, states = batches[next]
                group.addTask { (position, await batch.expand(states, depth: depth)) }
                next += 1
            }
            while let (position, expanded) = await group.next() {
                finished[position] = expanded
                while let ready = finished.removeValue(forKey: nextToTake) {
                    ready.forEach(take)
                    statesLeft -= ready.count
                    nextToTake += 1
                    told(statesLeft)
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
