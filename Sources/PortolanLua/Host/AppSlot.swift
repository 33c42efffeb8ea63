import Lua
import Portolan

/// The app a host's script declared, with all that was registered for it: the router (and with
/// it the live tree and its bindings), the declared graph, the Swift nodes, and the rules the
/// script added. A reload (`RulesReload`) sets the whole slot aside and puts it back on failure.
struct AppSlot {
    var router: Router?
    var declaration: GraphDeclaration?
    /// Swift objects bound to node ids; they take precedence over Lua handlers, and survive reloads.
    var swiftNodes: [NodeID: any Routable] = [:]
    /// What the script registered besides its app; a reload starts it afresh.
    var rules = ScriptRules()
    /// What the last declaration changed on the active path, when it replaced an earlier one.
    var lastMigration: [Instruction] = []
    var reload: ReloadPhase = .none
    /// The rules' declared `version` and their `migrations` (`AppOptions`), which a restore applies.
    var rulesVersion = 1
    /// The hash of the app's files as they were when it was declared (`RulesHash`): the rules in
    /// service, whatever the files hold since.
    var rulesHash = RulesHash.noFiles
    var migrations: [Int: SnapshotMigration] = [:]
    /// The root's `explore` option (`AppOptions`).
    var explore = ExploreDeclaration()

    /// Where a reload stands. Until the script declares its app again, the rules it adds must not
    /// reach the router still in service (a failed reload restores it untouched).
    enum ReloadPhase {
        case none
        case scriptRunning
        case declared
    }

    /// Whether a rule added now goes to the router in service.
    var rulesReachRouter: Bool { reload != .scriptRunning }

    /// Whether some node of the declared app has a guard.
    var hasGuards: Bool { declaration?.hasGuards ?? false }
}

/// The rules a script registers outside its app's table.
struct ScriptRules {
    /// URL redirect rules (`portolan.redirect_rule`), in declaration order, kept for routers of
    /// apps declared later.
    var redirectRules: [HostRedirectRule] = []
    /// Whether the script added an interceptor; with none and no guards, routes skip Lua entirely.
    var hasInterceptors = false
    /// The script's `portolan.on` observers (Lua functions), by `RouterEvent.Name.slot`, in the
    /// order they were added: the host calls each itself (`HostCore.deliver`).
    private(set) var observers = [[LuaValue]](repeating: [], count: RouterEvent.Name.allCases.count)
    /// The events that have an observer, one bit per name (`RouterEvent.Name.observedBit`): asked
    /// on every event, so it hashes nothing; only those events are turned into Lua values.
    private(set) var observedEvents: UInt8 = 0

    func observes(_ name: RouterEvent.Name) -> Bool {
        observedEvents & name.observedBit != 0
    }

    /// The observer of `name` at `position`, or none past the last.
    func observer(of name: RouterEvent.Name, at position: Int) -> LuaValue? {
        let list = observers[name.slot]
        // `.none`, not `nil`: LuaValue takes the nil literal, and would make `.some(.nil)` of it.
        return position < list.count ? list[position] : .none
    }

    mutating func add(observer: LuaValue, of name: RouterEvent.Name) {
        observers[name.slot].append(observer)
        observedEvents |= name.observedBit
    }
}
