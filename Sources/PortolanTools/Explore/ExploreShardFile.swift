import Portolan
import PortolanLua

/// What one shard of an exploration found, as `portolan explore --shard i/n` writes it and
/// `portolan explore merge` reads it (docs/explore.md, "Splitting a run"): the shard, what every
/// shard of the run must agree on, the path of every state it kept, and the record of each state
/// it expanded. An action is named by its place among the catalog's actions of its state, which
/// the merge rebuilds from the app. Canonical JSON: the same shard gives the same bytes.
public struct ExploreShardFile: Sendable {
    static let format = "portolan-explore-shard 1"

    public let shard: ExploreShard
    /// The app, the settings that decide what is explored, and the fingerprints of the catalog
    /// and of the start: the merge refuses shards that differ in any of them.
    let agreement: [String: JSONValue]
    let paths: [UInt64: [Entry]]
    /// Each expanded state's record as the file writes it, by the state's fingerprint.
    let records: [UInt64: (depth: Int, record: JSONValue)]
    /// The shard's own limits that left states out: what a merge missing a state points to.
    let limits: [String]

    init(
        shard: ExploreShard, app: String, options: ExploreOptions, catalog: ExploreCatalog, search: BreadthFirstSearch,
        records: [(record: ExpansionRecord, depth: Int)]
    ) {
        self.shard = shard
        agreement = Self.agreement(app: app, options: options, catalog: catalog, start: search.states.first?.fingerprint ?? 0)
        var paths: [UInt64: [Entry]] = [:]
        for state in search.states { paths[state.fingerprint] = state.path }
        self.paths = paths
        var written: [UInt64: (depth: Int, record: JSONValue)] = [:]
        for (record, depth) in records where record.index < search.states.count {
            let state = search.states[record.index]
            written[state.fingerprint] = (depth, Self.json(record, actions: catalog.actions(at: state.path)))
        }
        self.records = written
        limits = (search.dropped.isEmpty ? [] : ["states \(options.states)"]) + (search.cutByTime == 0 ? [] : ["time"])
    }

    static func agreement(app: String, options: ExploreOptions, catalog: ExploreCatalog, start: UInt64) -> [String: JSONValue] {
        let (seconds, attoseconds) = options.handlerTimeout.components
        return [
            "app": .string(app), "depth": .integer(Int64(options.depth)), "states": .integer(Int64(options.states)),
            "recheck": .integer(Int64(options.recheck)), "seed": .integer(Int64(options.seed)),
            "examples": .integer(Int64(options.examplesPerNode)), "batch_size": .integer(Int64(options.batchSize)),
            "handler_budget": .integer(Int64(options.handlerInstructionBudget)),
            "handler_timeout_ns": .integer(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000),
            "scenarios": .array(options.scenarioFiles.map { .string($0) }),
            "catalog": .string(hex(catalog.fingerprint)), "start": .string(hex(start)),
        ]
    }

    /// The scenario files whose literals were examples: those the coverage page runs.
    public var scenarioFiles: [String] { (agreement["scenarios"]?.arrayValue ?? []).compactMap(\.stringValue) }

    /// The shard as its file holds it.
    public var text: String {
        var paths: [String: JSONValue] = [:]
        for (fingerprint, path) in self.paths { paths[Self.hex(fingerprint)] = .array(path.map(SnapshotFields.entry)) }
        var records: [String: JSONValue] = [:]
        for (fingerprint, written) in self.records {
            records[Self.hex(fingerprint)] = .object(["depth": .integer(Int64(written.depth)), "record": written.record])
        }
        return CanonicalJSON.text(of: .object([
            "format": .string(Self.format), "shard": .string(shard.description), "agreement": .object(agreement),
            "paths": .object(paths), "records": .object(records), "limits": .array(limits.map { .string($0) }),
        ]))
    }

    /// A record: each edge as its target's fingerprint (or null) and its ending, in the order of
    /// `actions`; each finding with its action's place among them.
    static func json(_ record: ExpansionRecord, actions: [ExploreAction]) -> JSONValue {
        var members: [String: JSONValue] = [
            "edges": .array(record.edges.map { .array([$0.target.map { .string(hex($0.fingerprint)) } ?? .null, .string($0.ending.rawValue)]) }),
            "findings": .array(record.findings.map { finding in
                var fields: [String: JSONValue] = [
                    "kind": .integer(Int64(finding.kind.rawValue)), "evidence": .string(finding.evidence),
                    "fold_keys": .array(finding.foldKeys.map { .string($0) }),
                    "action": finding.action.flatMap { actions.firstIndex(of: $0) }.map { .integer(Int64($0)) } ?? .null,
                ]
                if let node = finding.node { fields["node"] = .string(node) }
                return .object(fields)
            }),
            "cut_by_time": .boolean(record.cutByTime), "rechecked": .boolean(record.rechecked),
        ]
        if let why = record.notExpanded { members["not_expanded"] = .string(why) }
        return .object(members)
    }

    /// `00a1…`: 16 hex digits.
    static func hex(_ fingerprint: UInt64) -> String { String(fingerprint, radix: 16).leftPadded(to: 16) }
}

extension ExploreShardFile {
    /// Reads a shard's file; `name` is what its errors call it.
    public init(bytes: [UInt8], name: String) throws(HostError) {
        guard let json = SnapshotReader.json(from: bytes)?.objectValue, json["format"]?.stringValue == Self.format else {
            throw HostError("\(name): not a shard of portolan explore (\(Self.format))")
        }
        guard let shard = json["shard"]?.stringValue.flatMap(ExploreShard.init), let agreement = json["agreement"]?.objectValue,
              let paths = json["paths"]?.objectValue, let records = json["records"]?.objectValue else {
            throw HostError("\(name): a shard needs its shard, agreement, paths and records")
        }
        self.shard = shard
        self.agreement = agreement
        var read: [UInt64: [Entry]] = [:]
        for (key, value) in paths {
            guard let fingerprint = UInt64(key, radix: 16), let entries = value.arrayValue else { throw HostError("\(name): paths.\(key) is malformed") }
            do {
                read[fingerprint] = try entries.enumerated().map { index, entry throws(SnapshotError) in
                    try SnapshotFields.entry(entry, path: "paths.\(key)[\(index + 1)]")
                }
            } catch {
                throw HostError("\(name): \(error.reason)")
            }
        }
        self.paths = read
        var written: [UInt64: (depth: Int, record: JSONValue)] = [:]
        for (key, value) in records {
            guard let fingerprint = UInt64(key, radix: 16), let depth = value.objectValue?["depth"]?.integerValue,
                  let record = value.objectValue?["record"], depth >= 0, depth < Int64(Int32.max) else {
                throw HostError("\(name): records.\(key) is malformed")
            }
            written[fingerprint] = (Int(depth), record)
        }
        self.records = written
        limits = (json["limits"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// The record of the state `fingerprint` given `index` by the merge: its edges' actions are
    /// the catalog's actions at its path, in order.
    func record(of fingerprint: UInt64, index: Int, catalog: ExploreCatalog) throws(HostError) -> ExpansionRecord? {
        guard let written = records[fingerprint]?.record.objectValue else { return nil }
        let problem = HostError("shard \(shard): the record of state \(Self.hex(fingerprint)) is malformed")
        guard let path = paths[fingerprint], let edges = written["edges"]?.arrayValue, let findings = written["findings"]?.arrayValue else { throw problem }
        let actions = catalog.actions(at: path)
        guard edges.count <= actions.count else { throw problem }
        var record = ExpansionRecord(index: index)
        for (action, edge) in zip(actions, edges) {
            guard let parts = edge.arrayValue, parts.count == 2, let ending = parts[1].stringValue.flatMap(ExpansionRecord.Ending.init) else { throw problem }
            var target: ExpansionRecord.Target?
            if let key = parts[0].stringValue {
                guard let fingerprint = UInt64(key, radix: 16), let path = paths[fingerprint] else { throw problem }
                target = .init(fingerprint: fingerprint, path: path)
            }
            record.edges.append(.init(action: action, target: target, ending: ending))
        }
        for found in findings {
            guard let fields = found.objectValue, let kind = fields["kind"]?.integerValue.flatMap({ ExploreFinding.Kind(rawValue: Int($0)) }),
                  let evidence = fields["evidence"]?.stringValue else { throw problem }
            let place = fields["action"]?.integerValue.map(Int.init)
            guard place.map({ $0 >= 0 && $0 < actions.count }) ?? true else { throw problem }
            var finding = ExploreFinding(
                kind: kind, state: index, path: ExploreState.text(of: path), action: place.map { actions[$0] }, evidence: evidence,
                node: fields["node"]?.stringValue)
            finding.foldKeys = (fields["fold_keys"]?.arrayValue ?? []).compactMap(\.stringValue)
            record.findings.append(finding)
        }
        record.notExpanded = written["not_expanded"]?.stringValue
        record.cutByTime = written["cut_by_time"] == .boolean(true)
        record.rechecked = written["rechecked"] == .boolean(true)
        return record
    }
}
