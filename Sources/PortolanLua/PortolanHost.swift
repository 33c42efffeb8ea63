import Lua
import Portolan

/// A Portolan app whose navigation rules are Lua: one sandboxed Lua state with the `portolan`
/// module, the graph its script declares, and the router that runs its routes.
///
/// The Sendable facade of a non-Sendable core: every call into Lua happens here, one at a time.
/// A script's main flow runs as a coroutine that hands each `portolan.route` to the host and
/// resumes with the result, so handlers (also coroutines, which may `portolan.wait`) run on the
/// same state in between without ever nesting a route inside another.
///
/// ```swift
/// let host = try PortolanHost()
/// try await host.loadApp(file: "app.lua")
/// await host.bind(MovieScreen(), to: "movie")
/// let result = await host.route(.path(["root", "tabs", "wishlist"]))
/// ```
public actor PortolanHost {
    private let core: HostCore
    /// Set from any thread (a signal handler, a timer) to stop the running script at its next instruction.
    public nonisolated let interruption: LuaInterrupt

    public init(configuration: HostConfiguration = .init()) throws(HostError) {
        let core = try HostCore(configuration: configuration)
        self.core = core
        self.interruption = core.state.interrupt
        core.host = self
    }

    // MARK: Loading and running scripts

    /// Runs an app script (it declares the graph with `portolan.app`).
    public func loadApp(file path: String) async throws(HostError) {
        if core.scriptDirectory == nil { core.scriptDirectory = Self.directory(of: path) }
        appFile = path
        _ = try await drive(try core.loadFile(path), [])
    }

    /// The app file last loaded, which `reload()` runs again.
    public private(set) var appFile: String?

    /// Hot reload: runs the app script again (the file last loaded, or `path`). The live tree is
    /// kept wherever the new graph still has its nodes; the returned instructions say what was
    /// left because it no longer exists (no handler runs for them: the node's rules are gone). A
    /// reload that fails (a syntax error, a bad graph) throws and keeps the previous rules running.
    public func reload(file path: String? = nil) async throws(HostError) -> [Instruction] {
        guard let file = path ?? appFile else { throw HostError("no app file to reload") }
        appFile = file
        return try await reloading { () throws(HostError) in try core.loadFile(file) }
    }

    /// Hot reload from text, for apps that fetch new rules at run time.
    public func reload(source: String, chunkName: String) async throws(HostError) -> [Instruction] {
        try await reloading { () throws(HostError) in try core.loadChunk(source, chunkName: chunkName) }
    }

    private func reloading(_ chunk: () throws(HostError) -> LuaValue) async throws(HostError) -> [Instruction] {
        let snapshot = try core.beginReload()
        do {
            _ = try await drive(try chunk(), [])
        } catch {
            try? core.endReload(restoring: snapshot)
            throw HostError(
                "reload failed; the previous rules stay: \(error.message)", traceback: error.traceback,
                isInterrupted: error.isInterrupted)
        }
        try core.endReload(restoring: nil)
        return core.lastMigration
    }

    /// Runs an app script given as text; `chunkName` names it in error messages.
    public func loadApp(source: String, chunkName: String) async throws(HostError) {
        _ = try await drive(try core.loadChunk(source, chunkName: chunkName), [])
    }

    /// Runs a chunk as a script's main flow; returns the printed form of what it returns.
    @discardableResult
    public func run(_ source: String, chunkName: String) async throws(HostError) -> [String] {
        try await show(try core.loadChunk(source, chunkName: chunkName))
    }

    /// Runs a file as a script's main flow; returns the printed form of what it returns.
    @discardableResult
    public func run(file path: String) async throws(HostError) -> [String] {
        try await show(try core.loadFile(path))
    }

    /// Evaluates REPL input as lua.c does: as an expression first (`return input`), then as a
    /// statement. Returns the printed form of each result; `isIncompleteInput` on the error means
    /// the statement continues on the next line.
    public func evaluate(_ input: String, chunkName: String = "=stdin") async throws(HostError) -> [String] {
        let chunk: LuaValue
        if let expression = try? core.loadChunk("return " + input, chunkName: chunkName) {
            chunk = expression
        } else {
            chunk = try core.loadChunk(input, chunkName: chunkName)
        }
        return try await show(chunk)
    }

    /// Runs a chunk as a main flow and returns its results as the REPL prints them.
    private func show(_ chunk: LuaValue) async throws(HostError) -> [String] {
        let shown = try await drive(try core.module.runAndShow, [chunk])
        return shown.map { $0.stringValue ?? "\($0)" }
    }

    // MARK: Routing from Swift

    /// Routes as `portolan.route` does; routes queued by its handlers run before this returns.
    public func route(_ destination: Destination) async -> RouteResult {
        let router: Router
        do {
            router = try core.requireRouter()
        } catch {
            return .failure(error)
        }
        let result = await router.route(to: destination)
        await settle()
        return result
    }

    /// Routes to where a URL leads, as `portolan.route("/movies/42")` does (Lua function redirect
    /// rules apply only to routes asked for from Lua).
    public func route(url: String) async -> RouteResult {
        let router: Router
        do {
            router = try core.requireRouter()
        } catch {
            return .failure(error)
        }
        if let observer = core.urlObserver, case .success(let resolution) = router.resolve(url: url) {
            observer(resolution)
        }
        let result = await router.route(url: url)
        await settle()
        return result
    }

    /// Calls `observer` with every URL routed to through this host, once resolved: the node and
    /// the pattern it matched (what a coverage report counts).
    public func observeURLs(_ observer: @escaping @Sendable (URLResolution) -> Void) {
        core.urlObserver = observer
    }

    /// What `route` would execute now, without running anything.
    public func plan(_ destination: Destination) async -> RouteResult {
        do {
            return try await core.requireRouter().plan(to: destination)
        } catch {
            return .failure(error)
        }
    }

    /// The router of the declared app, for its tree and event stream; nil before `portolan.app`.
    public var router: Router? { core.router }

    /// The declared graph; nil before `portolan.app`.
    public var graph: NavigationGraph? { core.declaration?.graph }

    // MARK: Embedding

    /// Binds a Swift object to a node id declared in Lua; it handles that node instead of Lua.
    public func bind(_ node: any Routable, to id: NodeID) {
        core.bind(node, to: id)
    }

    /// Makes a Swift function callable from Lua as the global `name`.
    public func register(function name: String, _ body: @escaping @Sendable ([LuaValue]) throws -> [LuaValue]) throws(HostError) {
        do {
            try core.state.register(name: name, body)
        } catch {
            throw HostError(error)
        }
    }

    /// Where `print` output and observer failures go (standard output by default).
    public func setOutput(_ output: @escaping @Sendable (String) -> Void) {
        core.output = output
    }

    /// The directory `portolan.load` tries for relative paths after the working directory.
    public func setScriptDirectory(_ directory: String?) {
        core.scriptDirectory = directory
    }

    // MARK: Called by the node adapters

    func runHandler(_ field: String, of id: NodeID, entry: Entry, info: InstructionInfo) async throws {
        core.currentDestination = info.destination
        var infoFields = info.url?.urlFields ?? [:]
        infoFields[.string("instruction")] = .string(info.instruction.description)
        let infoValue: LuaValue = .table(infoFields)
        let values = try await runHandlerCoroutine([.string(id), .string(field), entry.luaValue, infoValue])
        try HandlerResult.check(values, handler: "\(field) of '\(id)'")
    }

    func canLeave(_ id: NodeID, entry: Entry) async throws -> Bool {
        let values = try await runHandlerCoroutine([.string(id), .string("can_leave"), entry.luaValue])
        return try HandlerResult.permission(values, handler: "can_leave of '\(id)'")
    }

    func intercept(_ request: RouteRequest) async throws -> InterceptionDecision {
        guard core.hasInterceptors || core.hasGuards else { return .pass }
        var requestFields = request.url?.urlFields ?? [:]
        requestFields[.string("destination")] = request.destination.luaValue
        requestFields[.string("from")] = .array(request.from.map(\.luaValue))
        let requestValue: LuaValue = .table(requestFields)
        let values = try await runHandlerCoroutine([requestValue], function: core.module.runInterceptors)
        return try HandlerResult.decision(values)
    }

    // MARK: Driving coroutines

    /// Runs a script's main flow, serving the routes, plans and waits it hands over.
    private func drive(_ function: LuaValue, _ arguments: [LuaValue]) async throws(HostError) -> [LuaValue] {
        let coroutine = try core.coroutine(running: try core.module.runScript)
        var input = [function] + arguments
        while true {
            let outcome: LuaCoroutine.Outcome
            do {
                outcome = try core.resume(coroutine, input, budget: core.configuration.scriptInstructionBudget)
            } catch {
                await settle()
                throw HostError(error)
            }
            switch outcome {
            case .finished(let values):
                await settle()
                return values
            case .yielded(let request):
                input = await serve(ModuleRequest(request))
                // Resuming drops a pending interrupt (a top-level Lua call), so one requested while the
                // script waited, or a cancelled task, stops it here.
                if interruption.isRequested || Task.isCancelled {
                    await settle()
                    throw HostError("interrupted", isInterrupted: true)
                }
            }
        }
    }

    private func serve(_ request: ModuleRequest?) async -> [LuaValue] {
        switch request {
        case .route(let value):
            return await route(luaDestination: value).luaValues
        case .plan(let value):
            do {
                switch try RouteTarget(lua: value) {
                case .destination(let destination):
                    return await plan(destination).luaValues
                case .url(let url):
                    return await plan(try core.requireRouter().resolve(url: url).get().destination).luaValues
                }
            } catch {
                return RouteResult.failure(error).luaValues
            }
        case .wait(let seconds):
            try? await Task.sleep(for: .seconds(seconds))
            return []
        case nil:
            // A plain coroutine.yield in a main flow: nothing to serve, carry on.
            return []
        }
    }

    private func route(luaDestination value: LuaValue) async -> RouteResult {
        do {
            switch try RouteTarget(lua: value) {
            case .destination(let destination): return await route(destination)
            case .url(let url): return await route(url: url)
            }
        } catch {
            return .failure(error)
        }
    }

    /// Waits for the routes queued meanwhile, then lets the observers see what happened.
    private func settle() async {
        while let ticket = core.takePendingTicket() {
            _ = await ticket.result
        }
        core.flushEvents()
    }

    /// Runs a handler, guard or interceptor to its end, sleeping through its `portolan.wait`s, within
    /// the handler time limit (the router leaves that to us: see `KeepsOwnTimeLimit`).
    private func runHandlerCoroutine(_ arguments: [LuaValue], function: LuaValue? = nil) async throws -> [LuaValue] {
        core.flushEvents()
        let limit = core.configuration.handlerTimeout
        let deadline = ContinuousClock.now + limit
        let coroutine = try core.coroutine(running: try function ?? core.module.runHandler)
        var input = arguments
        while true {
            try Task.checkCancellation()
            let outcome: LuaCoroutine.Outcome
            do {
                outcome = try core.resume(coroutine, input, budget: core.configuration.handlerInstructionBudget)
            } catch {
                throw HandlerError(error.message)
            }
            switch outcome {
            case .finished(let values):
                return values
            case .yielded(let values):
                guard case .wait(let seconds)? = ModuleRequest(values) else {
                    throw HandlerError("a handler yielded; only portolan.wait may suspend a handler")
                }
                let wakeUp = ContinuousClock.now + .seconds(seconds)
                try await Task.sleep(until: min(wakeUp, deadline))
                guard wakeUp <= deadline else { throw HandlerTimeout("the handler did not finish within \(limit)") }
                input = []
            }
        }
    }

    private static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
