/// What a snapshot becomes under the rules in service, before anything runs: the tree to restore,
/// the histories and pending destination that still lead somewhere, and every change made on the
/// way (the migrations declared from the snapshot's version to the rules', then the conservative
/// rule). Building one never throws for a document that was read; only a snapshot written by
/// newer rules than these is refused.
///
/// It is the one carrier of a router's state to other rules: a restore prepares a saved document
/// with it, and a reload the live router's own (`Router.carried(to:version:migrations:from:)`).
public struct PreparedRestore: Sendable {
    public let tree: RoutingTree
    public let switchHistory: [NodeID: [Entry]]
    public let pending: Destination?
    public let routes: [RouteRecord]
    public let state: JSONValue
    public let changes: [SnapshotChange]
    /// What the restore notices besides its changes: rules changed without a version bump.
    public let notes: [RestoreNote]
    /// Why a restore would have refused this state, when it was carried all the same by the
    /// conservative rule alone (`Router.carried`); nil when a restore would take it.
    public internal(set) var restoreRefusal: String?

    /// The id each saved node renamed by the migrations has now, through every rename in turn.
    public var renames: [NodeID: NodeID] {
        var renames: [NodeID: NodeID] = [:]
        for case .renamed(let old, let new, _) in changes {
            for (saved, current) in renames where current == old { renames[saved] = new }
            if renames[old] == nil { renames[old] = new }
        }
        return renames
    }

    /// `migrations` are the app's, by the version each leads to; `hash` is the hash of the rules
    /// in service (`RulesIdentity.hash`; empty when unknown).
    public init(
        _ document: SnapshotDocument, graph: NavigationGraph, version: Int, hash: String = "", migrations: [Int: SnapshotMigration]
    ) throws(SnapshotError) {
        guard document.rules.version <= version else {
            throw SnapshotError(
                "written by newer rules: version \(document.rules.version), and these rules are version \(version)")
        }
        if let breaking = migrations.values.filter({ $0.isIncompatible && $0.version > document.rules.version && $0.version <= version })
            .map(\.version).max()
        {
            throw SnapshotError(
                "the rules declare it incompatible: version \(breaking) cannot carry over states saved by version \(document.rules.version)")
        }
        self.init(carrying: document, graph: graph, version: version, hash: hash, migrations: migrations)
    }

    /// The document carried as far as it can be, refusing nothing: the migrations from its
    /// version up to `version` (none when it is newer), then the conservative rule.
    init(carrying document: SnapshotDocument, graph: NavigationGraph, version: Int, hash: String, migrations: [Int: SnapshotMigration]) {
        var changes: [SnapshotChange] = []
        var saved = document.tree
        var switchHistory = document.switchHistory
        var pending = document.pending
        var step = document.rules.version
        while step < version {
            step += 1
            guard let migration = migrations[step] else { continue }
            saved = migration.apply(to: saved, changes: &changes)
            switchHistory = Self.renamed(switchHistory, by: migration)
            pending = pending.map { Self.renamed($0, by: migration) }
        }
        var resolution = SnapshotResolution(graph: graph)
        let root = resolution.resolve(saved)
        changes += resolution.changes
        tree = RoutingTree(graph: graph, root: root)
        self.switchHistory = Self.valid(switchHistory, in: graph, changes: &changes)
        if let destination = pending, destination.namedEntries.contains(where: { graph[$0.id] == nil }) {
            changes.append(.forgotten("the pending destination '\(destination)'", reason: "it names a node the rules no longer have"))
            self.pending = nil
        } else {
            self.pending = pending
        }
        routes = document.routes
        state = document.state
        self.changes = changes
        notes = RestoreNote.comparing(document.rules, with: RulesIdentity(version: version, hash: hash))
    }

    private static func renamed(_ entry: Entry, by migration: SnapshotMigration) -> Entry {
        Entry(migration.renamed[entry.id] ?? entry.id, context: entry.context)
    }

    private static func renamed(_ history: [NodeID: [Entry]], by migration: SnapshotMigration) -> [NodeID: [Entry]] {
        var renamed: [NodeID: [Entry]] = [:]
        for (node, entries) in history {
            renamed[migration.renamed[node] ?? node, default: []] += entries.map { Self.renamed($0, by: migration) }
        }
        return renamed
    }

    private static func renamed(_ destination: Destination, by migration: SnapshotMigration) -> Destination {
        switch destination {
        case .path(let entries): .path(entries.map { renamed($0, by: migration) })
        case .anywhere(let entry): .anywhere(renamed(entry, by: migration))
        case .push(let entry, let launch, let popUpTo):
            .push(renamed(entry, by: migration), launch: launch,
                  popUpTo: popUpTo.map { PopUpTo(migration.renamed[$0.id] ?? $0.id, inclusive: $0.inclusive) })
        case .live(let id, let context, let occurrence): .live(migration.renamed[id] ?? id, context: context, occurrence: occurrence)
        case .update(let entry, let merging, let memory): .update(renamed(entry, by: migration), merging: merging, memory: memory)
        case .reset(let entries): .reset(entries.map { renamed($0, by: migration) })
        case .remove(let entry): .remove(renamed(entry, by: migration))
        case .replace(let entry, let replacement): .replace(renamed(entry, by: migration), with: renamed(replacement, by: migration))
        }
    }

    /// The switch histories whose node is still a switch with those children; the rest reported.
    private static func valid(_ history: [NodeID: [Entry]], in graph: NavigationGraph, changes: inout [SnapshotChange]) -> [NodeID: [Entry]] {
        var kept: [NodeID: [Entry]] = [:]
        for node in history.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let declaration = graph[node], declaration.kind == .switch else {
                changes.append(.forgotten("the switch history of '\(Excerpt.of(node))'", reason: "the rules have no such switch node"))
                continue
            }
            let entries = history[node] ?? []
            let valid = entries.filter { declaration.children.contains($0.id) && $0.isWellFormed }
            if valid.count < entries.count {
                changes.append(.forgotten("\(entries.count - valid.count) entries of the switch history of '\(Excerpt.of(node))'", reason: "not children of it in the rules"))
            }
            if !valid.isEmpty { kept[node] = valid }
        }
        return kept
    }
}
