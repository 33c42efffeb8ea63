import Portolan
import PortolanLua

/// `portolan explore merge` as a Swift API (docs/explore.md, "Splitting a run"): joins the files
/// of every shard of one run into the report that run would have given in one piece. It loads the
/// app to rebuild the catalog, checks that every shard explored the same app with the same
/// settings from the same start, then replays the shards' records breadth first from the start,
/// as the one run would have met the states, each state's record taken from the shard that
/// reached it first.
public enum ExploreMerge {
    /// `keepsEdges` as `ExploreOptions.keepsEdges`: whether the report is to be drawn or give the coverage page.
    public static func report(
        of files: [ExploreShardFile], keepsEdges: Bool = true, embed: (@Sendable (PortolanHost) async -> Void)? = nil
    ) async throws(HostError) -> ExploreReport {
        let first = try checked(files)
        let app = first.agreement["app"]?.stringValue ?? ""
        var options = try options(from: first.agreement)
        options.embed = embed
        let setup = try await ExploreSetup.prepare(app: app, options: options, from: nil)
        let rebuilt = ExploreShardFile.agreement(app: app, options: options, catalog: setup.catalog, start: setup.start.fingerprint)
        guard rebuilt == first.agreement else {
            throw HostError("the shards explored another \(app): the app, its scenario files or its start changed since they ran")
        }
        let ordered = files.sorted { $0.shard.number < $1.shard.number }
        var search = BreadthFirstSearch(
            start: .init(fingerprint: setup.start.fingerprint, path: setup.start.path), limit: options.states, keepsEdges: keepsEdges)
        var level = [0], depth = 0
        while !level.isEmpty, depth < options.depth {
            search.frontier = []
            for index in level {
                let fingerprint = search.states.fingerprint(of: index)
                guard let record = try record(of: fingerprint, index: index, in: ordered, catalog: setup.catalog) else {
                    let cut = ordered.filter { !$0.limits.isEmpty }.map { "shard \($0.shard) stopped at its \($0.limits.joined(separator: " and ")) limit" }
                    throw HostError("no shard expanded state \(index) (\(search.states[index].pathText))"
                        + (cut.isEmpty ? "" : ": " + cut.joined(separator: "; ") + "; raise it and run the shards again"))
                }
                search.add(record, depth: depth + 1)
            }
            level = search.frontier
            depth += 1
        }
        return ExploreReporting.report(app: app, search: search, catalog: setup.catalog, options: options, depth: depth, from: nil)
    }

    /// Every shard of one run, each once, all agreeing: the first of them.
    private static func checked(_ files: [ExploreShardFile]) throws(HostError) -> ExploreShardFile {
        guard let first = files.first else { throw HostError("no shard to merge") }
        let count = first.shard.count
        if let other = files.first(where: { $0.shard.count != count }) {
            throw HostError("shard \(other.shard) is of another run than shard \(first.shard)")
        }
        for number in 1...count {
            let given = files.filter { $0.shard.number == number }
            if given.isEmpty { throw HostError("shard \(number)/\(count) is missing") }
            if given.count > 1 { throw HostError("shard \(number)/\(count) is given \(given.count) times") }
        }
        for file in files {
            if file.agreement != first.agreement {
                let differ = Set(file.agreement.keys).union(first.agreement.keys).filter { file.agreement[$0] != first.agreement[$0] }.sorted()
                throw HostError("shard \(file.shard) explored with other settings than shard \(first.shard): \(differ.joined(separator: ", "))")
            }
        }
        return first
    }

    /// The record of a state from the shard that expanded it nearest the start (there, it was
    /// reached as the one run reaches it), the lowest-numbered of those.
    private static func record(
        of fingerprint: UInt64, index: Int, in files: [ExploreShardFile], catalog: ExploreCatalog
    ) throws(HostError) -> ExpansionRecord? {
        let holders = files.filter { $0.records[fingerprint] != nil }
        guard let nearest = holders.min(by: { ($0.records[fingerprint]?.depth ?? .max) < ($1.records[fingerprint]?.depth ?? .max) }) else {
            return nil
        }
        return try nearest.record(of: fingerprint, index: index, catalog: catalog)
    }

    /// The settings the shards ran with, as the agreement records them.
    private static func options(from agreement: [String: JSONValue]) throws(HostError) -> ExploreOptions {
        func number(_ key: String, atMost most: Int64 = Int64(Int32.max)) throws(HostError) -> Int {
            guard let value = agreement[key]?.integerValue, value >= 0, value <= most else {
                throw HostError("the shards' agreement has no \(key)")
            }
            return Int(value)
        }
        let scenarios = (agreement["scenarios"]?.arrayValue ?? []).compactMap(\.stringValue)
        return ExploreOptions(
            depth: try number("depth"), states: try number("states"), seconds: .infinity,
            handlerTimeout: .nanoseconds(Int64(try number("handler_timeout_ns", atMost: .max))), handlerInstructionBudget: try number("handler_budget"),
            seed: try number("seed"), scenarioFiles: scenarios, examplesPerNode: try number("examples"),
            batchSize: try number("batch_size"), recheck: try number("recheck"))
    }
}
