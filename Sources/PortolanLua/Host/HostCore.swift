import Lua
import Portolan

/// The heart of a host: one Lua state, the router of the app it declared, and the bridge
/// functions the `portolan` module calls. Only its `PortolanHost` uses it, on the host's thread,
/// one unit of work at a time (GRDB's `Database` to `DatabaseQueue`), so Lua is never entered
/// from two threads.
final class HostCore: @unchecked Sendable {
    // @unchecked: used only on `thread`; the router calls back into it (handlers, observers) there.
    let state: LuaState
    let configuration: HostConfiguration
    /// The host's thread, which the routers of its apps run on too.
    let thread: SerialThread
    /// What wakes the host's waits: its interrupt, a cancelled route, an awaited Swift node's end.
    let wakeup = Wakeup()
    // Set here when the script declares its app, and by `RulesReload`, which owns them during a reload.
    var router: Router?
    var declaration: GraphDeclaration?
    private(set) var functions: ModuleFunctions?
    /// The printer's key order, `function(table) -> keys` (`ValuePrinter.lua`).
    private(set) var sortedKeys: LuaValue = .nil
    /// Swift objects bound to node ids; they take precedence over Lua handlers.
    private(set) var swiftNodes: [NodeID: any Routable] = [:]
    /// Whether the app script is running again; until it declares its app, the rules it adds must
    /// not reach the router still in service (a failed reload restores it untouched).
    var isReloading = false
    var declaredDuringReload = false
    /// What the last declaration changed on the active path, when it replaced an earlier one.
    var lastMigration: [Instruction] = []
    /// URL redirect rules (`portolan.redirect_rule`), in declaration order, kept for routers of
    /// apps declared later.
    var redirectRules: [HostRedirectRule] = []
    /// Whether the script added an interceptor; with none and no guards, routes skip Lua entirely.
    var hasInterceptors = false
    /// Whether some node of the declared app has a guard.
    var hasGuards: Bool { declaration?.hasGuards ?? false }
    /// Where a route was going when a guard redirected it with `{ resume = true }`; a route the
    /// user asks for (from a script or from Swift, not one queued by a handler) forgets it.
    var pendingResume: Destination?
    /// The destination of the route whose handler runs now, for `info.destination`.
    var currentDestination: Destination?
    /// The events some `portolan.on` observer waits for (`will_route`, `instruction` …); only
    /// those are turned into Lua values.
    var observedEvents: Set<String> = []
    /// Lua threads kept for the next handler (a reused thread costs what a `lua_pcall` does).
    var idleCoroutines: [LuaCoroutine] = []
    /// Told of every URL a script routes to, once resolved (coverage of route patterns).
    var urlObserver: (@Sendable (URLResolution) -> Void)?
    /// Told of every router event, from whichever router the app has now (a script may declare
    /// the app again, which makes a new one).
    var eventObserver: (@Sendable (RouterEvent) -> Void)?
    /// Where `print` and observer failures go.
    var output: @Sendable (String) -> Void = { print($0) }
    /// The app's own directory: where `portolan.load` finds the files a script names (see
    /// ScriptFileConfinement), and `require` its modules unless the configuration says otherwise.
    var appDirectory: String?
    /// Instructions a main flow may run between two routes: the configuration's, or, while an app
    /// loads under a budget of its own (``PortolanHost/loadApp(file:instructionBudget:)``), that one.
    var scriptInstructionBudget: Int?
    /// The running scenario file's directory, also open to `portolan.load`.
    var scriptDirectory: String?
    /// Every file loaded as a script (the app file, `portolan.load`), in order, once each.
    var loadedFiles: [String] = []
    /// How many chunks of text the host has compiled or taken from the cache: what shows that a
    /// tool drives the host without writing Lua of its own.
    private(set) var chunksLoaded = 0

    init(configuration: HostConfiguration, thread: SerialThread) throws(HostError) {
        self.configuration = configuration
        self.thread = thread
        scriptInstructionBudget = configuration.scriptInstructionBudget
        do {
            state = try LuaState(sandboxed: true)
            state.interrupt.wakes(wakeup.semaphore, owner: wakeup)
            state.memoryLimit = configuration.memoryLimit
            // One depth limit for apps, the engine's: a node's description nests two tables per
            // level (the node, its list of children), so conversions must go twice as deep.
            state.maximumTableDepth = 2 * NavigationGraph.maximumDepth + 8
            if let directory = configuration.moduleDirectory {
                try state.setModuleDirectory(directory)
            }
            try installModule()
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
            guard let functions else { throw HostError("the portolan module is not installed") }
            return functions
        }
    }

    private func installModule() throws {
        // The module's chunks raise a script's misuse at the script's line, never at their own.
        try state.setLibraryChunk(PortolanModule.chunkName)
        let printer = try run(PortolanModule.printer, [try state.rawMetatableFunction()])
        guard printer.count == 2 else { throw HostError("the printer of values returned \(printer.count) values") }
        sortedKeys = printer[1]
        let checkers = try run(
            PortolanModule.nodeDescription,
            [.array(HandlerName.allCases.map { .string($0.rawValue) }), .integer(Int64(NavigationGraph.maximumDepth)),
             .table(RootOption.luaBounds)])
        guard checkers.count == 2 else { throw HostError("the node-table checkers returned \(checkers.count) values") }
        let chunk = try CompiledChunks.function(
            PortolanModule.source, chunkName: PortolanModule.chunkName, in: state, environment: .host)
        let urlRules = try run(PortolanModule.urlRules, []).first ?? .nil
        let flows = try run(PortolanModule.flows, []).first ?? .nil
        let events = LuaValue.array(RouterEvent.Name.observedByScripts.map { .string($0.rawValue) })
        let results = try state.call(chunk, [try bridge(), printer[0], checkers[0], checkers[1], urlRules, flows, events])
        guard results.count == 2 else { throw HostError("the portolan module returned \(results.count) values") }
        functions = try ModuleFunctions(results[0])
        try state.preload(name: "portolan", function: results[1])
        try state.run(#"portolan = require "portolan""#, chunkName: "=portolan")
        // Shared by every script in the state, as the standard libraries are: read-only to them.
        try state.makeReadOnly(global: "portolan", description: "the portolan module")
    }

    /// What a part of the module returns. Each runs in the host's environment, as the module does:
    /// what they call is what the sandbox gave, whatever globals an app rebinds.
    private func run(_ part: PortolanModule.Part, _ arguments: [LuaValue]) throws -> [LuaValue] {
        let chunk = try CompiledChunks.function(part.source, chunkName: part.chunkName, in: state, environment: .host)
        return try state.call(chunk, arguments)
    }

    // MARK: The app

    /// Installs the graph a script declared, with a fresh router; the tree starts afresh, or, when
    /// an app was declared before (a reload), is carried over to the new graph.
    func declare(root: LuaValue, anywhere: LuaValue, options: AppOptions) throws(DeclarationError) {
        let declaration = try GraphDeclaration(
            root: root, anywhere: anywhere, caseInsensitiveRoutes: options.caseInsensitiveRoutes, origins: options.origins)
        // Declaring again (a reload) carries the live tree over to the new graph.
        let migration = self.router.map { TreeMigration(from: $0.tree, to: declaration.graph) }
        lastMigration = migration?.instructions ?? []
        let tree = migration?.tree ?? RoutingTree(graph: declaration.graph)
        let router = Router(
            tree: tree, configuration: options.routerConfiguration(handlerTimeout: configuration.handlerTimeout),
            thread: thread, wakeup: wakeup)
        for rule in redirectRules {
            try? install(rule, on: router)
        }
        // Unowned: the core owns the router, and the router calls these only inside the core's units.
        router.observe { [unowned self] event in deliver(event) }
        router.addInterceptor(InterceptorHandler { [unowned self] request in try intercept(request) })
        for (id, handlers) in declaration.handlers {
            if let bound = luaHandlers(of: id, declared: handlers) { router.bind(bound, to: id) }
        }
        for (id, node) in swiftNodes {
            router.bind(node, to: id)
        }
        self.declaration = declaration
        self.router = router
        declaredDuringReload = isReloading
    }

    func bind(_ node: any Routable, to id: NodeID) {
        swiftNodes[id] = node
        router?.bind(node, to: id)
    }

    func requireRouter() throws(RouteFailure) -> Router {
        guard let router else {
            throw RouteFailure(.invalid, "no app is declared yet: call portolan.app { ... } or portolan.load(path)")
        }
        return router
    }

    // MARK: Routes

    func route(_ destination: Destination, step: RouteStep? = nil) -> RouteResult {
        pendingResume = nil
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
        pendingResume = nil
        do {
            let router = try requireRouter()
            urlObserver?(resolution)
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
    func back() -> RouteResult {
        pendingResume = nil
        do {
            return try requireRouter().backNow()
        } catch {
            return .failure(error)
        }
    }

    /// The pending resume's destination, forgotten when `take` (what `resume()` routes to).
    func pending(take: Bool) -> Destination? {
        defer { if take { pendingResume = nil } }
        return pendingResume
    }

    func plan(_ destination: Destination) -> RouteResult {
        do {
            return try requireRouter().planNow(to: destination)
        } catch {
            return .failure(error)
        }
    }

    /// Queues a route asked for from inside a route (a handler, guard, interceptor or observer):
    /// it runs after the running one, before the outermost route returns.
    func enqueue(_ target: RouteTarget, step: RouteStep? = nil) throws(RouteFailure) {
        let router = try requireRouter()
        let ticket: RouteTicket
        switch target {
        case .destination(let destination):
            ticket = router.enqueue(to: destination, step: step)
        case .url(let url):
            // A URL that leads nowhere is refused here, at the caller's line, not later.
            let resolution = try resolve(url: url).get()
            urlObserver?(resolution)
            ticket = router.enqueue(resolved: resolution, step: step)
        }
        // Dropped at once (a duplicate): the caller hears it now, not never.
        if case .failure(let failure)? = ticket.outcome { throw failure }
    }

    /// Adds a URL redirect rule, to this router and to any declared later.
    func addRedirectRule(_ rule: HostRedirectRule) throws(URLRoutingError) {
        if case .pattern(let pattern, let template) = rule {
            var check = URLRedirects()
            try check.add(from: pattern, to: template)
        }
        redirectRules.append(rule)
        if !isReloading || declaredDuringReload, let router {
            try install(rule, on: router)
        }
    }

    // MARK: Running Lua

    func coroutine(running function: LuaValue) throws(HostError) -> LuaCoroutine {
        do {
            return try LuaCoroutine(function, in: state)
        } catch {
            throw HostError(error)
        }
    }

    func resume(_ coroutine: LuaCoroutine, _ input: [LuaValue], budget: Int?) throws(LuaError) -> LuaCoroutine.Outcome {
        try state.withInstructionBudget(budget) { () throws(LuaError) in try coroutine.resume(input) }
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
