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
    /// Flows added from Swift (`PortolanHost.addFlow`): asked after the script's, and they survive reloads.
    var swiftFlows: [Flow] = []
    /// What the script registered besides its app; a reload starts it afresh.
    var rules = ScriptRules()
    /// What the last declaration did to the live state it carried, when it replaced an earlier
    /// one: a reload's result and a swap's outcome are made of it.
    var lastCarry = Carry()
    /// The screens that declaration left on the router it replaced, which a reload that fails
    /// brings back (`Router.returnNow`).
    var departed: (router: Router, departure: Router.Departure)?
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

    /// What carrying the live state to the rules a script declared did.
    struct Carry {
        /// The screens that left, kept stacks' first, then the active path's instructions
        /// (`ReloadResult.left`).
        var left: [Instruction] = []
        /// What comes onto the active path, for the new rules' handlers (`ReloadResult.entered`).
        var entered: [Instruction] = []
        /// Every change, in every stack.
        var changes: [SnapshotChange] = []
        var notes: [RestoreNote] = []
        /// What a restore would have refused, which a swap refuses too
        /// (`PreparedRestore.restoreRefusal`).
        var restoreRefusal: String?
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
    /// Whether the script added an interceptor; with none, routes call no interceptor in Lua.
    var hasInterceptors = false
    /// The script's flows (`portolan.flow`), in declaration order: the engine asks them through
    /// the module (`HostCore+Flows`).
    var flows: [LuaFlow] = []
    /// The script's `portolan.on` observers, which the host calls itself (`HostCore.deliver`).
    /// A class of their own, made with the rules: a reload sets them aside with the rest.
    let observers = ScriptObservers()
}
