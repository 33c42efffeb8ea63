import Lua
import Portolan

/// A hot reload as one transaction: it sets aside every rule the app script registered, on both
/// sides of the bridge, runs the script again, then commits what the script declared or puts back
/// all it set aside. It is the only owner of that state while the script runs; a live swap of the
/// rules builds on it.
///
/// Swift's side is the host's `AppSlot`, set aside whole: the router (and with it the live tree and
/// its bindings), the declared graph, the redirect rules (patterns and functions alike), and what
/// the script observes and intercepts; with it the script files loaded and the app's directory, the
/// rules in service (`rulesInService`) and the pending resume, which a swap changes too. Lua's side
/// (the module's nodes, interceptors, observers and flows) is taken out by one call,
/// `host.take_rules`, which answers the function that puts it back.
///
/// A swap keeps the transaction once it commits, while a canary watches the new rules: reverting
/// them is putting back what was set aside (`revert`), which nothing the new rules did can stop.
struct RulesReload {
    private let savedApp: AppSlot
    private let savedFiles: ScriptFiles.Saved
    private let savedSource: AppRules?
    private let savedPending: PendingResume?
    /// `host.take_rules`'s answer: the Lua function that puts the Lua side back.
    private let restoreLuaRules: LuaValue
    /// The screens the committed rules' declaration left on the router it replaced, which a
    /// revert brings back; nil until then, or when it left none.
    private var departedAtCommit: (router: Router, departure: Router.Departure)?

    /// Runs `rules` (the app script again, or other rules, which then serve) in `core`; on
    /// failure, everything it replaced comes back, and the error says so. Then asks the new
    /// rules' guards about the active path, as `refresh()` does: what the session was allowed to
    /// see may have changed with them.
    static func run(in core: HostCore, _ rules: AppRules) throws(HostError) -> ReloadResult {
        try transact(in: core, rules, failing: "reload failed", requiresApp: false) { result, _ in result }.value
    }

    /// A swap of the rules (`HostCore.swapRules`): the same transaction, whose script must declare
    /// an app, judged by `accept` from what it did (a throw puts everything back). Answers the
    /// committed transaction too, whose `revert` undoes the swap.
    static func swap<T>(
        in core: HostCore, _ rules: AppRules, then accept: (ReloadResult, AppSlot.Carry) throws(HostError) -> T
    ) throws(HostError) -> (value: T, committed: RulesReload) {
        try transact(in: core, rules, failing: "the swap failed", requiresApp: true, then: accept)
    }

    /// The one rules change: sets aside what the rules in service registered, runs the new script
    /// (which carries the live state to what it declares: `HostCore.declare`) as the app's files
    /// afresh, in its own directory, asks the new guards about the active path, and lets `judge`
    /// decide from what it did. Whatever throws puts back everything set aside, the router in
    /// service first; on commit the new rules are the ones in service, and the observers hear that
    /// the whole tree was carried.
    private static func transact<T>(
        in core: HostCore, _ rules: AppRules, failing failure: String, requiresApp: Bool,
        then judge: (ReloadResult, AppSlot.Carry) throws(HostError) -> T
    ) throws(HostError) -> (value: T, committed: RulesReload) {
        var reload = try RulesReload(settingAsideIn: core)
        let value: T, changes: [SnapshotChange]
        var entered: [Instruction] = []
        do throws(HostError) {
            try core.files.startAfresh(in: rules.directory)
            _ = try core.drive(try core.chunk(of: rules), [])
            if requiresApp, core.app.reload != .declared { throw HostError("the rules declare no app (portolan.app)") }
            core.app.reload = .none
            let carry = core.app.lastCarry
            // What comes onto the active path is entered by the new rules, now that they are in place.
            if let router = core.router, case .failure(let refused) = router.enterCarried(carry.entered) {
                throw HostError("a screen the new rules bring could not be entered: \(refused)")
            }
            entered = carry.entered
            changes = carry.changes + core.carryStateKeys()
            // With no guard and no interceptor nothing can refuse the path: no route, no events.
            let asksGuards = core.router != nil && (core.app.hasGuards || core.app.rules.hasInterceptors)
            let refresh = asksGuards ? core.refresh() : .success([])
            value = try judge(ReloadResult(left: carry.left, entered: entered, changes: changes, refresh: refresh), carry)
        } catch {
            // What the new rules entered leaves by them, before their router goes.
            let unentered = core.router?.leaveCarried(entered).map { "; what they entered did not all leave: \($0)" } ?? ""
            let unrestored = unentered + (reload.putBack(in: core, departed: core.app.departed) ?? "")
            throw HostError(
                "\(failure); the previous rules stay: \(error.message)\(unrestored)", traceback: error.traceback,
                isInterrupted: error.isInterrupted)
        }
        core.rulesInService = rules
        if let replaced = reload.savedApp.router, replaced !== core.app.router {
            // Its streams would wait forever: the host's own stream (`events()`) goes on.
            replaced.finishEventStreams()
        }
        core.router?.announceCarried(changes)
        reload.departedAtCommit = core.app.departed
        return (value, reload)
    }

    /// Sets aside what the script registered, so that it registers afresh when it runs again. The
    /// router stays in service until the script declares its app (`AppSlot.ReloadPhase`).
    private init(settingAsideIn core: HostCore) throws(HostError) {
        savedApp = core.app
        savedFiles = core.files.saved
        savedSource = core.rulesInService
        savedPending = core.session.pendingResume
        // The app's own modules are read afresh: an edit to a required file is part of the reload.
        let takeRules = try core.module.takeRules
        do {
            try core.state.forgetRequiredModules()
            restoreLuaRules = try core.state.call(takeRules, []).first ?? .nil
        } catch {
            throw HostError(error)
        }
        core.app.rules = ScriptRules()
        core.app.lastCarry = AppSlot.Carry()
        core.app.departed = nil
        core.app.reload = .scriptRunning
    }

    /// Undoes the committed swap (a canary's failure): everything set aside comes back, as it was
    /// before the swap, the tree at the path it had then. It reads nothing of the rules it ends,
    /// not their state nor their handlers (their screens leave by no handler of theirs), so rules
    /// that fail in any way cannot stop it. Nil when all came back; else what did not, and what
    /// serves now, as a sentence.
    func revert(in core: HostCore) -> String? {
        guard savedSource != nil else {
            return "no rules were in service before the swap, so these stay in service, unwatched"
        }
        guard let problem = putBack(in: core, departed: departedAtCommit) else { return nil }
        return "the rules before the swap serve again, but" + problem.dropFirst()
    }

    /// Puts back everything as it was before the reload: the Lua side first, so that the screens
    /// the new rules took away (`departed`) come back through the handlers of the rules that left
    /// them. What could not be put back, said as a sentence to add to the reload's error; nil
    /// when all was.
    private func putBack(in core: HostCore, departed: (router: Router, departure: Router.Departure)?) -> String? {
        let replaced = core.app.router.map { $0 !== savedApp.router } ?? false
        if replaced { core.app.router?.finishEventStreams() }
        core.app = savedApp
        core.files.putBack(savedFiles)
        core.rulesInService = savedSource
        core.session.pendingResume = savedPending
        do {
            _ = try core.state.call(restoreLuaRules, [])
        } catch {
            return "; the previous rules' Lua side could not be put back: \(error)"
        }
        if let departed, let stopped = departed.router.returnNow(departed.departure) {
            return "; the screens the new rules took away did not all come back: \(stopped)"
        }
        // The new router's guards may have routed, and its events were heard: whoever follows
        // them reads the tree again, the one that serves once more.
        if replaced { core.router?.announceCarried([]) }
        return nil
    }
}
