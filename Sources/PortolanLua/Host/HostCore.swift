import Lua
import Portolan

/// The heart of a host: one Lua state, the app its script declared, and the services the
/// `portolan` module calls. Only its `PortolanHost` uses it, on the host's thread, one unit of
/// work at a time (GRDB's `Database` to `DatabaseQueue`), so Lua is never entered from two
/// threads. Each of its jobs is a type of its own: the installed module (`InstalledModule`), the
/// app and its rules (`AppSlot`, replaced whole by `RulesReload`), running Lua (`LuaRunner`),
/// the script files (`ScriptFiles`), the observers (`HostObservers`) and the session's route
/// state (`RouteSession`); what the module calls is `ModuleBridge`.
final class HostCore: @unchecked Sendable {
    // @unchecked: used only on `thread`; the router calls back into it (handlers, observers) there.
    let state: LuaState
    let configuration: HostConfiguration
    /// The host's thread, which the routers of its apps run on too.
    let thread: SerialThread
    /// What wakes the host's waits: its interrupt, a cancelled route, an awaited Swift node's end.
    let wakeup = Wakeup()
    let runner: LuaRunner
    let files: ScriptFiles
    private(set) var installed: InstalledModule?
    var app = AppSlot()
    var session = RouteSession()
    var observers = HostObservers()
    /// The instructions' texts Lua observers get, pinned (`deliver`).
    let instructionTexts = PinnedInstructionTexts()
    /// The streams of `PortolanHost.events()`, fed with the events of whichever router the app has:
    /// they outlive every reload. Behind a lock of its own, so any thread may take a stream.
    let eventStreams = RouterEventHub(bufferLimit: Router.eventBufferLimit)
    /// The Swift functions the embedder registered, by name, which a rules bundle may require.
    private(set) var registeredFunctions: [String: HostFunction] = [:]
    /// The rules in service as they were loaded (`loadApp`, a reload, a swap): what `reload()`
    /// runs again and what a canary reverts to. Changed only once the rules are in service, so a
    /// reload that fails leaves it naming the rules that stay.
    var rulesInService: AppRules?

    /// The app file of the rules in service, which `reload()` runs again; nil for rules given as text.
    var appFile: String? { rulesInService?.file }
    /// The watch over the routes after a swap, with the committed swap it may undo, while it
    /// lasts (`RulesSwapWatch`).
    var swapWatch: WatchedSwap?
    /// A watch that asked for its swap's revert, until the revert runs: the next job on the
    /// host's thread, after the route that decided it.
    var revertAsked: WatchedSwap?
    /// How many chunks of text the host has compiled or taken from the cache: what shows that a
    /// tool drives the host without writing Lua of its own.
    private(set) var chunksLoaded = 0

    init(configuration: HostConfiguration, thread: SerialThread) throws(HostError) {
        self.configuration = configuration
        self.thread = thread
        do {
            state = try LuaState(sandboxed: true)
        } catch {
            throw HostError(error)
        }
        runner = LuaRunner(state: state, wakeup: wakeup, limits: configuration)
        files = ScriptFiles(state: state, configuredModuleDirectory: configuration.moduleDirectory)
        runner.isRouteCancelled = { [unowned self] in app.router?.isRunningRouteCancelled == true }
        // The router's configuration holds the app's `handler_timeout` (or the host's), and a
        // failed reload puts the old router back, so its limit with it.
        runner.handlerTimeout = { [unowned self] in app.router?.configuration.handlerTimeout ?? configuration.handlerTimeout }
        do {
            state.interrupt.wakes(wakeup.handle, owner: wakeup)
            state.memoryLimit = configuration.memoryLimit
            // One depth limit for apps, the engine's: a node's description nests two tables per
            // level (the node, its list of children), so conversions must go twice as deep.
            state.maximumTableDepth = 2 * NavigationGraph.maximumDepth + 8
            if let directory = configuration.moduleDirectory {
                try state.setModuleDirectory(directory)
            }
            installed = try InstalledModule(in: state, bridge: try ModuleBridge.table(for: self))
            for (name, body) in configuration.functions {
                try register(function: name, body)
            }
        } catch let error as LuaError {
            throw HostError(error)
        } catch let error as HostError {
            throw error
        } catch {
            throw HostError("\(error)")
        }
    }

    var module: ModuleFunctions {
        get throws(HostError) {
            guard let installed else { throw HostError("the portolan module is not installed") }
            return installed.functions
        }
    }

    /// The router of the declared app, if any.
    var router: Router? { app.router }

    // MARK: The app

    /// Installs the graph a script declared, with a fresh router; the tree starts afresh, or, when
    /// an app was declared before (a reload), is carried over to the new graph, once the screens
    /// it takes away from the active path have left. Throws when one of them fails to leave; the
    /// router in service then stays, untouched.
    func declare(_ declaration: GraphDeclaration, options: AppOptions) throws(HostError) {
        let migrations = snapshotMigrations(options.migrations)
        let routerConfiguration = options.routerConfiguration(handlerTimeout: configuration.handlerTimeout)
        let router: Router
        if let replaced = app.router {
            let carried = try carry(from: replaced, to: declaration.graph, version: options.version, migrations: migrations)
            router = Router(carrying: carried, configuration: routerConfiguration, thread: thread, wakeup: wakeup)
        } else {
            app.lastCarry = AppSlot.Carry()
            app.departed = nil
            router = Router(tree: RoutingTree(graph: declaration.graph), configuration: routerConfiguration, thread: thread, wakeup: wakeup)
        }
        for rule in app.rules.redirectRules {
            try? install(rule, on: router)
        }
        installFlows(on: router)
        // Unowned: the core owns the router, and the router calls these only inside the core's units.
        // The checked load of the core costs an observed event about 170 instructions, under 5% of
        // a route: not enough to skip the check (Benchmarks/README.md, "The unsafe ledger").
        router.observe(whenListening: { [unowned self] in hasEventListeners }) { [unowned self] event in
            deliver(event)
        }
        router.addInterceptor(InterceptorHandler { [unowned self] request in try intercept(request) })
        for (id, handlers) in declaration.handlers {
            if let bound = luaHandlers(of: id, declared: handlers, timeLimit: router.configuration.handlerTimeout) {
                router.bind(bound, to: id)
            }
        }
        for (id, node) in app.swiftNodes {
            bindSwift(node, to: id, on: router, declared: declaration.handlers[id] ?? [])
        }
        // The router replaced is gone for good, unless a reload that fails puts it back.
        if app.reload != .scriptRunning { app.router?.finishEventStreams() }
        app.declaration = declaration
        app.router = router
        app.rulesVersion = options.version
        app.explore = options.explore
        app.rulesHash = RulesHash.of(files: appFiles)
        app.migrations = migrations
        if app.reload == .scriptRunning { app.reload = .declared }
    }

    /// Declaring again (a reload) carries the live state to the new rules as a restore carries a
    /// snapshot: their declared migrations, the conservative rule and their limits, in every kept
    /// stack, with the switches' histories, the routes and the pending destination; the screens
    /// it takes away leave first, the kept stacks' and the active path's. What it did goes to `app.lastCarry`.
    private func carry(
        from replaced: Router, to graph: NavigationGraph, version: Int, migrations: [Int: SnapshotMigration]
    ) throws(HostError) -> PreparedRestore {
        let pending = session.pendingResume
        let carried = replaced.carried(to: graph, version: version, migrations: migrations, from: rulesIdentity, pending: pending?.destination)
        let difference = CarryDifference(from: replaced.tree, to: carried.tree, renamed: carried.renames)
        // The screens that go leave by the rules that entered them: the module's nodes are still
        // theirs until `portolan.app` returns.
        let left: [Instruction]
        switch replaced.leaveNow(difference) {
        case .failure(let failure):
            throw HostError("a screen the new rules take away could not leave: \(failure)")
        case .success(let departure):
            app.departed = (replaced, departure)
            left = departure.keptLeft + difference.activeLeaving
        }
        app.lastCarry = AppSlot.Carry(
            left: left, entered: difference.arrivals, changes: carried.changes,
            notes: carried.notes, restoreRefusal: carried.restoreRefusal)
        // A pending destination the rules renamed goes on under its new names (its URL, the old
        // rules', with it only when nothing changed); one they no longer have is forgotten.
        if let pending, carried.pending != pending.destination {
            session.pendingResume = carried.pending.map { PendingResume(destination: $0) }
        }
        return carried
    }

    /// Makes `body` the Lua global `name`, run inside the unit of work that calls it.
    func register(function name: String, _ body: @escaping HostFunction) throws(HostError) {
        let thread = self.thread
        do {
            try state.register(name: name) { arguments in try thread.callingOut { try body(arguments) } }
            registeredFunctions[name] = body
        } catch {
            throw HostError(error)
        }
    }

    func bind(_ node: any Routable, to id: NodeID) {
        app.swiftNodes[id] = node
        if let router { bindSwift(node, to: id, on: router, declared: app.declaration?.handlers[id] ?? []) }
    }

    /// Binds a Swift object over the node `id`: it takes the node's place whole, except for the
    /// script's `guard`, which decides about routes, not screens, and still runs unless the object
    /// guards the node itself (`Guarded`).
    private func bindSwift(_ node: any Routable, to id: NodeID, on router: Router, declared: Set<HandlerName>) {
        var handlers = NodeHandlers(waitingFor: node, router: router)
        if handlers.guardRoute == nil, declared.contains(.guard) {
            handlers.guardRoute = luaHandlers(of: id, declared: [.guard], timeLimit: router.configuration.handlerTimeout)?.guardRoute
        }
        router.bind(handlers, to: id)
    }

    func requireRouter() throws(RouteFailure) -> Router {
        guard let router else {
            throw RouteFailure(.invalid, "no app is declared yet: call portolan.app { ... } or portolan.load(path)")
        }
        return router
    }

    // MARK: Routes

    func route(_ destination: Destination, step: RouteStep? = nil) -> RouteResult {
        session.pendingResume = nil
        do {
            return try requireRouter().routeNow(to: destination, step: step)
        } catch {
            return .failure(error)
        }
    }

    /// Where a URL leads after the redirect rules, from Lua or from Swift: the router's one
    /// pipeline (origin, rules of both kinds in declaration order, patterns).
    func resolve(url: String) -> Result<URLResolution, RouteFailure> {
        do {
            return try requireRouter().resolve(url: url)
        } catch {
            return .failure(error)
        }
    }

    /// Routes to a resolved URL; the coverage observer sees the very resolution the route uses.
    func route(resolved resolution: URLResolution, step: RouteStep? = nil) -> RouteResult {
        session.pendingResume = nil
        do {
            let router = try requireRouter()
            observers.urls?(resolution)
            return router.routeNow(resolved: resolution, step: step)
        } catch {
            return .failure(error)
        }
    }

    /// Re-runs the guards and interceptors for the active path, as a route to it: nothing runs
    /// when they pass. A pending resume stays (the user asked for no new destination).
    func refresh() -> RouteResult {
        do {
            let router = try requireRouter()
            return router.routeNow(to: .path(router.activePath))
        } catch {
            return .failure(error)
        }
    }

    /// Leaves the top screen: routes to the active path without it, as a route the user asked for.
    func back(_ distance: BackDistance? = nil) -> RouteResult {
        session.pendingResume = nil
        do {
            return try requireRouter().backNow(distance)
        } catch {
            return .failure(error)
        }
    }

    /// `portolan.back`'s distance as the module hands it over: nil, `{ screens = n }` or
    /// `{ keep = k }` (the module checked that each is a whole number).
    func back(luaDistance value: LuaValue) -> RouteResult {
        switch (value["screens"], value["keep"]) {
        case (.integer(let count), _): back(.screens(Int(count)))
        case (_, .integer(let count)): back(.keeping(Int(count)))
        default: back()
        }
    }

    /// Routes to the pending resume, by its URL when it came from one, and forgets it (as every
    /// route the user asks for does); nil when none is pending.
    func resume() -> RouteResult? {
        guard let pending = session.pendingResume else { return nil }
        if let url = pending.url { return route(resolved: url) }
        return route(pending.destination)
    }

    /// What a route would do, decided without doing it (`Router.planNow`): no handler, context
    /// task or observer runs, and the pending resume stays.
    func plan(_ destination: Destination) -> RoutePlan {
        do {
            return try requireRouter().planNow(to: destination)
        } catch {
            return RoutePlan(requested: destination, result: .failure(error))
        }
    }

    /// `plan(_:)` for a URL, resolved here: one that leads nowhere is the plan's failure.
    func plan(url: String) -> RoutePlan {
        do {
            switch resolve(url: url) {
            case .success(let resolution):
                return try requireRouter().planNow(resolved: resolution)
            case .failure(var failure):
                failure.url = url
                return RoutePlan(requested: .path([]), result: .failure(failure))
            }
        } catch {
            return RoutePlan(requested: .path([]), result: .failure(error))
        }
    }

    /// Routes to where a URL leads; one that leads nowhere is refused as a request (`refuse`).
    func route(url: String, step: RouteStep? = nil) -> RouteResult {
        switch resolve(url: url) {
        case .success(let resolution): route(resolved: resolution, step: step)
        case .failure(let failure): .failure(refuse(failure, url: url))
        }
    }

    /// A request refused before it became a route (`Router.refuse`): told of as a failed route
    /// when an app is declared. Returns the failure as recorded.
    func refuse(_ failure: RouteFailure, requested: Destination = .path([]), url: String? = nil) -> RouteFailure {
        router?.refuse(failure, requested: requested, url: url) ?? failure
    }

    /// Queues a route asked for from inside a route (a handler, guard, interceptor or observer):
    /// it runs after the running one, before the outermost route returns.
    func enqueue(_ target: RouteTarget, step: RouteStep? = nil) throws(RouteFailure) {
        switch target {
        case .destination(let destination):
            try Self.accepted(try requireRouter().enqueue(to: destination, step: step, origin: .rules))
        case .url(let url):
            // A URL that leads nowhere is refused here, at the caller's line, not later.
            let resolution: URLResolution
            switch resolve(url: url) {
            case .success(let resolved): resolution = resolved
            case .failure(let failure): throw refuse(failure, url: url)
            }
            try enqueue(resolved: resolution, step: step)
        }
    }

    /// Queues a route to a resolved URL, as ``enqueue(_:step:)`` queues one to a URL.
    private func enqueue(resolved resolution: URLResolution, step: RouteStep? = nil) throws(RouteFailure) {
        let router = try requireRouter()
        observers.urls?(resolution)
        try Self.accepted(router.enqueue(resolved: resolution, step: step, origin: .rules))
    }

    /// A queued route dropped at once (a duplicate, refused by the router) fails now, so that the
    /// caller hears it, not never.
    private static func accepted(_ ticket: RouteTicket) throws(RouteFailure) {
        if case .failure(let failure)? = ticket.outcome { throw failure }
    }

    /// Queues the pending resume (`portolan.resume()` from inside a route), by its URL when it came
    /// from one, and forgets it. Where it goes, or nil when none is pending.
    func enqueueResume() throws(RouteFailure) -> Destination? {
        guard let pending = session.pendingResume else { return nil }
        session.pendingResume = nil
        if let url = pending.url {
            try enqueue(resolved: url)
        } else {
            try enqueue(.destination(pending.destination))
        }
        return pending.destination
    }

    /// Adds a URL redirect rule, to this router and to any declared later.
    func addRedirectRule(_ rule: HostRedirectRule) throws(URLRoutingError) {
        if case .pattern(let pattern, let template) = rule {
            var check = URLRedirects()
            try check.add(from: pattern, to: template)
        }
        app.rules.redirectRules.append(rule)
        if app.rulesReachRouter, let router = app.router {
            try install(rule, on: router)
        }
    }

    // MARK: Chunks

    /// The chunk that runs `rules`, its file read afresh.
    func chunk(of rules: AppRules) throws(HostError) -> LuaValue {
        switch rules {
        case .file(let path): try files.load(path)
        case .source(let text, let chunkName): try loadChunk(text, chunkName: chunkName)
        case .fileWithText(let path, let text): try loadChunk(text, chunkName: "@" + path)
        }
    }

    func loadChunk(
        _ source: String, chunkName: String, environment: LuaChunkEnvironment = .globals
    ) throws(HostError) -> LuaValue {
        chunksLoaded += 1
        do {
            return try CompiledChunks.function(Array(source.utf8), chunkName: chunkName, in: state, environment: environment)
        } catch {
            throw HostError(error)
        }
    }
}
