/// A snapshot of a router's state, `portolan-snapshot/2`: the live tree (the active path with its
/// contexts and every kept stack), the switches' histories, the pending destination, the last
/// routes, the app's state with the keys its rules name, and the identity of the rules that wrote
/// it. Format 1, the same without those keys, is read too. docs/snapshots.md says
/// what each field means; docs/snapshot.schema.json is its schema.
///
/// The document is plain values: it is written as canonical JSON (`CanonicalJSON`), and read
/// from a `JSONValue`, refusing anything that is not exactly this shape.
public struct SnapshotDocument: Sendable, Equatable {
    /// The format this engine writes; it reads `formats`.
    public static let format = "portolan-snapshot/2"
    /// What this engine reads: format 1 has no `state_keys`, so a restore of it drops no key.
    public static let formats = ["portolan-snapshot/1", format]

    public var rules: RulesIdentity
    public var tree: SavedNode
    /// Each switch node's history of children switched away from, oldest first.
    public var switchHistory: [NodeID: [Entry]]
    /// Where `resume()` would go.
    public var pending: Destination?
    /// The last routes, oldest first.
    var history: [SavedRoute]
    /// The app's state (`null` when it has none).
    public var state: JSONValue
    /// The keys of the app's state that the rules that wrote it name (`portolan.initial_state`),
    /// sorted: a restore under rules that no longer name one drops it, as a reload does.
    public var stateKeys: [String]

    public init(
        rules: RulesIdentity, tree: SavedNode, switchHistory: [NodeID: [Entry]] = [:], pending: Destination? = nil,
        history: [RouteRecord] = [], state: JSONValue = .null, stateKeys: [String] = []
    ) {
        self.rules = rules
        self.tree = tree
        self.switchHistory = switchHistory.mapValues { Array($0.suffix(SnapshotLimits.switchHistoryEntries)) }.filter { !$0.value.isEmpty }
        self.pending = pending
        self.history = history.suffix(SnapshotLimits.historyRoutes).map(SavedRoute.init)
        self.state = state
        self.stateKeys = stateKeys.sorted()
    }

    /// The routes as the router's history holds them.
    public var routes: [RouteRecord] { history.map(\.record) }

    /// The document as a JSON value; `CanonicalJSON` writes it.
    public var json: JSONValue {
        .object([
            "format": .string(Self.format), "rules": rules.json, "tree": tree.json,
            "switch_history": .object(switchHistory.mapValues { .array($0.map(SnapshotFields.entry)) }),
            "pending": pending.map(SnapshotFields.destination) ?? .null,
            "history": .array(history.map(\.json)), "state": state, "state_keys": .array(stateKeys.map(JSONValue.string)),
        ])
    }

    /// The document's canonical bytes, or why it cannot be written (larger than `SnapshotLimits.maximumBytes`).
    public func canonicalBytes() throws(SnapshotError) -> [UInt8] {
        let bytes = CanonicalJSON.bytes(of: json)
        guard bytes.count <= SnapshotLimits.maximumBytes else {
            throw SnapshotError("too large: the snapshot would be \(bytes.count) bytes, more than \(SnapshotLimits.maximumBytes)")
        }
        return bytes
    }

    /// Reads a document, or says why it is not one this engine reads.
    public init(json: JSONValue) throws(SnapshotError) {
        guard let members = json.objectValue, let format = members["format"]?.stringValue else {
            throw SnapshotError("not a snapshot: no 'format' field")
        }
        guard Self.formats.contains(format) else {
            if format.hasPrefix("portolan-snapshot/") {
                throw SnapshotError("a newer format: '\(format)'; this engine reads \(Self.formats.joined(separator: " and "))")
            }
            throw SnapshotError("not a snapshot: format '\(format)'")
        }
        var known: Set<String> = ["format", "rules", "tree", "switch_history", "pending", "history", "state"]
        if format == Self.format { known.insert("state_keys") }
        if let unknown = members.keys.first(where: { !known.contains($0) }) {
            throw SnapshotError("not a snapshot: unknown field '\(unknown)'")
        }
        rules = try RulesIdentity(json: members["rules"] ?? .null)
        tree = try SavedNode(json: members["tree"] ?? .null, path: "tree")
        switchHistory = try Self.switchHistory(members["switch_history"] ?? .null)
        pending = try members["pending"].flatMap { value throws(SnapshotError) in
            value == .null ? nil : try SnapshotFields.destination(value, path: "pending")
        }
        guard let routes = members["history"]?.arrayValue, routes.count <= SnapshotLimits.historyRoutes else {
            throw .field("history", "an array of at most \(SnapshotLimits.historyRoutes) routes")
        }
        var history: [SavedRoute] = []
        for (index, route) in routes.enumerated() {
            history.append(try SavedRoute(json: route, path: "history[\(index)]"))
        }
        self.history = history
        state = members["state"] ?? .null
        stateKeys = try Self.stateKeys(members["state_keys"], required: format == Self.format)
    }

    /// The `state_keys` field: a sorted list of names, which format 1 lacks.
    private static func stateKeys(_ json: JSONValue?, required: Bool) throws(SnapshotError) -> [String] {
        guard let json else {
            if required { throw .field("state_keys", "an array of strings") }
            return []
        }
        guard let keys = json.arrayValue else { throw .field("state_keys", "an array of strings") }
        var names: [String] = []
        for (index, key) in keys.enumerated() {
            guard let name = key.stringValue else { throw .field("state_keys[\(index)]", "a string") }
            names.append(name)
        }
        return names.sorted()
    }

    private static func switchHistory(_ json: JSONValue) throws(SnapshotError) -> [NodeID: [Entry]] {
        guard let members = json.objectValue else { throw .field("switch_history", "an object") }
        var history: [NodeID: [Entry]] = [:]
        for (node, list) in members {
            let path = "switch_history.\(node)"
            guard let entries = list.arrayValue, !entries.isEmpty, entries.count <= SnapshotLimits.switchHistoryEntries else {
                throw .field(path, "a non-empty array of at most \(SnapshotLimits.switchHistoryEntries) entries")
            }
            var saved: [Entry] = []
            for (index, entry) in entries.enumerated() {
                saved.append(try SnapshotFields.entry(entry, path: "\(path)[\(index)]"))
            }
            history[node] = saved
        }
        return history
    }
}
