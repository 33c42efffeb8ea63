import Lua
import Portolan

/// Snapshots of the host's app (docs/snapshots.md): the router's state with what only the host
/// knows (the rules' identity, the pending resume, the app's state), and restores of them
/// under the rules in service, through the router as one unit of work.
extension HostCore {
    /// The rules' identity: the declared version and the hash of the app's files when declared.
    var rulesIdentity: RulesIdentity {
        RulesIdentity(version: app.rulesVersion, hash: app.rulesHash)
    }

    /// The files the app is made of: the app file, the files it loaded, the modules it required.
    var appFiles: [String] {
        let required = (try? state.requiredFiles) ?? []
        let loaded = files.loaded
        return loaded + required.filter { !loaded.contains($0) }
    }

    /// The app's state (`portolan.state`) as a snapshot saves it; what is not plain data is refused
    /// with its path.
    func capturedAppState() throws(SnapshotError) -> JSONValue {
        let values: [LuaValue]
        do {
            values = try state.call(try module.stateForSnapshot, [])
        } catch {
            throw SnapshotError("cannot save portolan.state: \(error)")
        }
        guard let value = values.first, value != .nil else {
            throw SnapshotError(values.count > 1 ? values[1].stringValue ?? "cannot save portolan.state" : "cannot save portolan.state")
        }
        return try AppStateValue.json(from: value, path: "portolan.state")
    }

    /// Makes `portolan.state` hold what a snapshot saved, in place, and unless `exactly` gives
    /// each key the rules in service name that it lacks its first value, and drops each key the
    /// rules that saved it named (`savedNames`) that these no longer do (`AppState.lua`'s
    /// `restore`). Returns those changes.
    func restoreAppState(_ saved: JSONValue, savedNames: [String] = [], exactly: Bool) throws(SnapshotError) -> [SnapshotChange] {
        // A document that saved no state (`null`) leaves the state as it is.
        if case .null = saved { return [] }
        let table = AppStateValue.lua(from: saved)
        guard case .table = table else {
            throw SnapshotError("the snapshot's state is not a table")
        }
        do {
            return Self.changes(try state.call(try module.restoreState, [table, .boolean(exactly), .array(savedNames.map(LuaValue.string))]))
        } catch {
            throw SnapshotError("cannot restore portolan.state: \(error)")
        }
    }

    /// The keys an `AppState.lua` report returns (a list, strings or integers), as text.
    private static func keys(_ values: [LuaValue]) -> [String] {
        (values.first?.arrayValue ?? []).map { $0.stringValue ?? $0.description }
    }

    /// What a reload's rules, which just ran, did to `portolan.state`'s keys (`AppState.lua`'s
    /// `carry_keys`): the keys they name that it lacked were added, and those the rules before
    /// named that they no longer do leave it now, as a restore adds and drops them; a key the
    /// change before dropped comes back with the session's value.
    func carryStateKeys() -> [SnapshotChange] {
        let lists = (try? state.call(try module.carryStateKeys, [])) ?? []
        return Self.changes(lists)
    }

    /// A report's lists of keys (`AppState.lua`: the keys added, those dropped, and those brought
    /// back) as changes.
    private static func changes(_ lists: [LuaValue]) -> [SnapshotChange] {
        func list(_ position: Int) -> [String] { keys(Array(lists.dropFirst(position).prefix(1))) }
        return list(0).map(SnapshotChange.stateKeyAdded) + list(1).map(SnapshotChange.stateKeyDropped)
            + list(2).map(SnapshotChange.stateKeyReturned)
    }

    /// The keys of `portolan.state` the rules in service name, as a snapshot saves them.
    func stateKeysNamed() throws(SnapshotError) -> [String] {
        do {
            return Self.keys(try state.call(try module.stateKeysNamed, []))
        } catch {
            throw SnapshotError("cannot save the names of portolan.state's keys: \(error)")
        }
    }

    func snapshot() throws(SnapshotError) -> SnapshotDocument {
        guard let router else { throw SnapshotError("no app is declared yet: nothing to snapshot") }
        let appState = try capturedAppState()
        return router.snapshot(
            rules: rulesIdentity, pending: session.pendingResume?.destination, state: appState, stateKeys: try stateKeysNamed())
    }

    /// Restores `bytes`, whatever they are: a typed outcome, never a throw. On a refusal the tree,
    /// the histories, the pending resume and the app's state are as they were.
    func restore(_ bytes: [UInt8]) -> RestoreOutcome {
        switch SnapshotReader.document(from: bytes) {
        case .failure(let error): return .refused(error.reason)
        case .success(let document): return restore(document)
        }
    }

    func restore(_ document: SnapshotDocument) -> RestoreOutcome {
        guard let router else { return .refused("no app is declared yet: nothing to restore into") }
        let prepared: PreparedRestore
        do {
            prepared = try PreparedRestore(
                document, graph: router.tree.graph, version: app.rulesVersion, hash: app.rulesHash, migrations: app.migrations)
        } catch {
            return .refused(error.reason)
        }
        // The state goes back first: the guards that run on the restored path read it.
        let previousState: JSONValue
        let stateChanges: [SnapshotChange]
        do {
            previousState = try capturedAppState()
            // Keys are new, or gone, only to a snapshot that other rules wrote: under the rules that
            // wrote it, a key the session had cleared stays cleared.
            stateChanges = try restoreAppState(prepared.state, savedNames: document.stateKeys, exactly: document.rules == rulesIdentity)
        } catch {
            return .refused(error.reason)
        }
        // The pending destination too: a guard that redirects with `resume` sets its own after.
        let previousPending = session.pendingResume
        session.pendingResume = prepared.pending.map(PendingResume.init(destination:))
        let outcome = router.restoreNow(prepared)
        // Routes the restored handlers queued run now, as after a route, within the same unit.
        router.drainQueue()
        if case .refused = outcome {
            _ = try? restoreAppState(previousState, exactly: true)
            session.pendingResume = previousPending
        }
        return outcome.adding(stateChanges)
    }

    /// The app's migrations as the engine takes them; a `context` function runs as a handler does.
    func snapshotMigrations(_ declared: [Int: DeclaredMigration]) -> [Int: SnapshotMigration] {
        declared.mapValues { step in
            var rewrite: SnapshotMigration.ContextRewrite?
            if let function = step.context {
                // Called only on the host's thread, inside its units, like every Lua handler.
                rewrite = { [unowned self] id, context throws in try rewriteContext(function.function, id: id, context: context) }
            }
            return SnapshotMigration(
                version: step.version, renamed: Dictionary(step.renamed, uniquingKeysWith: { first, _ in first }),
                removed: Set(step.removed), moved: Dictionary(step.moved, uniquingKeysWith: { first, _ in first }),
                context: rewrite, isIncompatible: step.isIncompatible)
        }
    }

    /// Calls a migration's `context(id, ctx)`: what it returns is the new context (nil: none).
    private func rewriteContext(_ function: LuaValue, id: NodeID, context: Context) throws -> Context {
        let values = try runner.runHandler(function, [.string(id), Entry(id, context: context).contextTable ?? .table([:])])
        guard let first = values.first, first != .nil else { return [:] }
        return try Entry(lua: .table([.string("id"): .string(id), .string("context"): first])).context
    }
}
