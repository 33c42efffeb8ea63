import Lua
import Portolan

/// The non-Sendable heart of a host: one Lua state, the router of the app it declared, and the
/// bridge functions the `portolan` module calls. Only its `PortolanHost` uses it, one call at a time
/// (GRDB's `Database` to `DatabaseQueue`), so Lua is never entered from two threads.
final class HostCore {
    let state: LuaState
    let configuration: HostConfiguration
    private(set) var router: Router?
    private(set) var declaration: GraphDeclaration?
    private var functions: ModuleFunctions?
    /// The facade, for the node adapters the router calls.
    weak var host: PortolanHost?
    /// Swift objects bound to node ids; they take precedence over Lua handlers.
    private(set) var swiftNodes: [NodeID: any Routable] = [:]
    /// Whether the app script is running again; until it declares its app, the rules it adds must
    /// not reach the router still in service (a failed reload restores it untouched).
    private var isReloading = false
    private var declaredDuringReload = false
    /// What the last declaration changed on the active path, when it replaced an earlier one.
    private(set) var lastMigration: [Instruction] = []
    /// URL redirect rules (`portolan.redirect_rule`), kept for routers of apps declared later.
    private var redirectRules: [(String, String)] = []
    /// Whether the script added an interceptor; with none and no guards, routes skip Lua entirely.
    var hasInterceptors = false
    /// Whether some node of the declared app has a guard.
    var hasGuards: Bool { declaration?.hasGuards ?? false }
    /// The destination of the route whose handler runs now, for `info.destination`.
    var currentDestination: Destination?
    /// Routes queued from handlers and observers while a script's route runs.
    private var pendingTickets: [RouteTicket] = []
    let events = EventBuffer()
    /// Told of every URL a script routes to, once resolved (coverage of route patterns).
    var urlObserver: (@Sendable (URLResolution) -> Void)?
    /// Where `print` and observer failures go.
    var output: @Sendable (String) -> Void = { print($0) }
    /// Directory tried for relative paths given to `portolan.load`, after the working directory.
    var scriptDirectory: String?

    init(configuration: HostConfiguration) throws(HostError) {
        self.configuration = configuration
        do {
            state = try LuaState(sandboxed: true)
            state.memoryLimit = configuration.memoryLimit
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
        let chunk = try state.load(portolanModuleSource, chunkName: "=portolan")
        let results = try state.call(chunk, [try bridge()])
        guard results.count == 2 else { throw HostError("the portolan module returned \(results.count) values") }
        functions = try ModuleFunctions(results[0])
        try state.preload(name: "portolan", function: results[1])
        try state.run(#"portolan = require "portolan""#, chunkName: "=portolan")
    }

    // MARK: The app

    /// Installs the graph a script declared, with a fresh router; the tree starts afresh, or, when
    /// an app was declared before (a reload), is carried over to the new graph.
    func declare(root: LuaValue, anywhere: LuaValue, caseInsensitiveRoutes: Bool) throws(DeclarationError) {
        let declaration = try GraphDeclaration(root: root, anywhere: anywhere, caseInsensitiveRoutes: caseInsensitiveRoutes)
        // Declaring again (a reload) carries the live tree over to the new graph.
        let migration = self.router.map { TreeMigration(from: $0.tree, to: declaration.graph) }
        lastMigration = migration?.instructions ?? []
        let tree = migration?.tree ?? RoutingTree(graph: declaration.graph)
        let router = Router(tree: tree, configuration: RouterConfiguration(handlerTimeout: configuration.handlerTimeout))
        for (pattern, template) in redirectRules {
            try? router.addRedirectRule(from: pattern, to: template)
        }
        let events = self.events
        router.observe { events.append($0) }
        router.addInterceptor(LuaInterceptor(host: host))
        for (id, handlers) in declaration.handlers where !handlers.subtracting(["guard"]).isEmpty {
            router.bind(LuaNode(host: host, id: id), to: id)
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

    // MARK: Reloading

    /// Everything a reload replaces, to put back when it fails.
    struct Snapshot {
        fileprivate let router: Router?
        fileprivate let declaration: GraphDeclaration?
        fileprivate let redirectRules: [(String, String)]
        fileprivate let hasInterceptors: Bool
        fileprivate let observed: Set<String>
    }

    func beginReload() throws(HostError) -> Snapshot {
        let snapshot = Snapshot(
            router: router, declaration: declaration, redirectRules: redirectRules,
            hasInterceptors: hasInterceptors, observed: events.observed)
        redirectRules = []
        hasInterceptors = false
        events.observed = []
        lastMigration = []
        isReloading = true
        declaredDuringReload = false
        try callModule(module.beginReload, [])
        return snapshot
    }

    func endReload(restoring snapshot: Snapshot?) throws(HostError) {
        if let snapshot {
            router = snapshot.router
            declaration = snapshot.declaration
            redirectRules = snapshot.redirectRules
            hasInterceptors = snapshot.hasInterceptors
            events.observed = snapshot.observed
        }
        isReloading = false
        try callModule(module.endReload, [.boolean(snapshot == nil)])
    }

    private func callModule(_ function: LuaValue, _ arguments: [LuaValue]) throws(HostError) {
        do {
            _ = try state.call(function, arguments)
        } catch {
            throw HostError(error)
        }
    }

    // MARK: Queued routes

    func enqueue(_ target: RouteTarget) throws(RouteFailure) {
        let router = try requireRouter()
        switch target {
        case .destination(let destination):
            pendingTickets.append(router.enqueue(to: destination))
        case .url(let url):
            // A URL that leads nowhere is refused here, at the caller's line, not later.
            switch router.resolve(url: url) {
            case .failure(let failure): throw failure
            case .success(let resolution): urlObserver?(resolution)
            }
            pendingTickets.append(router.enqueue(url: url))
        }
    }

    /// Adds a URL redirect rule, to this router and to any declared later.
    func addRedirectRule(from pattern: String, to template: String) throws(URLRoutingError) {
        var check = URLRedirects()
        try check.add(from: pattern, to: template)
        redirectRules.append((pattern, template))
        if !isReloading || declaredDuringReload {
            try router?.addRedirectRule(from: pattern, to: template)
        }
    }

    func takePendingTicket() -> RouteTicket? {
        pendingTickets.isEmpty ? nil : pendingTickets.removeFirst()
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

    /// Hands the events the router reported since the last call to the script's observers.
    func flushEvents() {
        let pending = events.takeAll()
        guard !pending.isEmpty, let emit = functions?.emit else { return }
        for event in pending {
            guard let name = event.luaName else { continue }
            let arguments = Self.luaArguments(of: event)
            do {
                let failures = try state.withInstructionBudget(configuration.handlerInstructionBudget) { () throws(LuaError) in
                    try state.call(emit, [.string(name)] + arguments)
                }
                for failure in failures.first?.arrayValue ?? [] {
                    output("observer of \(name) failed: \(failure.stringValue ?? "\(failure)")")
                }
            } catch {
                output("observer of \(name) failed: \(error.message)")
            }
        }
    }

    private static func luaArguments(of event: RouterEvent) -> [LuaValue] {
        switch event {
        case .willRoute(let destination):
            return [destination.luaValue]
        case .instruction(let instruction):
            return [.string(instruction.description)]
        case .didRoute(let destination, let executed):
            return [executed.luaValue, destination.luaValue]
        case .failed(let destination, let failure):
            return [failure.luaFields, destination.luaValue]
        case .hostReported:
            return []
        }
    }

    func loadChunk(_ source: String, chunkName: String) throws(HostError) -> LuaValue {
        do {
            return try state.load(source, chunkName: chunkName)
        } catch {
            throw HostError(error)
        }
    }

    func loadFile(_ path: String) throws(HostError) -> LuaValue {
        let resolved = resolve(path)
        do {
            // "@": Lua shortens a long path from the front ("...dir/app.lua:3:"), keeping the file name.
            return try state.load(contentsOfFile: resolved, chunkName: "@" + resolved)
        } catch {
            throw HostError(error)
        }
    }

    private func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), !FileCheck.exists(path), let scriptDirectory else { return path }
        let candidate = scriptDirectory + "/" + path
        return FileCheck.exists(candidate) ? candidate : path
    }
}
