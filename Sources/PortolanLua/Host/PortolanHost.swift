import Lua
import Portolan

/// A Portolan app whose navigation rules are Lua: one sandboxed Lua state with the `portolan`
/// module, the graph its script declares, and the router that runs its routes.
///
/// **One owner, units of work** (GRDB's `DatabaseQueue` is the model). The host is an actor whose
/// executor is a thread of its own (`SerialThread`), never Swift's cooperative pool. Each of its
/// methods is a unit of work that runs to completion, in arrival order: its methods are
/// synchronous, so no other operation can slip in between the steps of a route (a `reload` that
/// arrives during a route runs after it). Inside a route, handlers, guards, interceptors and
/// observers are direct calls. A unit blocks its thread only where something really waits
/// (`portolan.wait`, an `async` Swift node), and Ctrl-C (`interruption`), the calling task's
/// cancellation or a scenario's time limit end such a wait at once.
///
/// ```swift
/// let host = try PortolanHost()
/// try await host.loadApp(file: "app.lua")
/// await host.bind(MovieScreen(), to: "movie")
/// let result = await host.route(.path(["root", "tabs", "wishlist"]))
/// ```
public actor PortolanHost {
    /// Internal, not private: the host's extensions in other files (`PortolanHost+Routing`) use it.
    let core: HostCore
    private let thread: SerialThread
    /// Set from any thread (a signal handler, a timer) to stop the running script at its next
    /// instruction, or the running wait within a few milliseconds.
    public nonisolated let interruption: LuaInterrupt

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        thread.asUnownedSerialExecutor()
    }

    /// A host with its own Lua state. It runs on `thread` when given, which hosts may share (a
    /// scenario runner reuses one per job): their units then take turns. Otherwise on a new thread.
    public init(configuration: HostConfiguration = .init(), thread: SerialThread? = nil) throws(HostError) {
        let thread = thread ?? SerialThread(name: "portolan.host")
        let core = try HostCore(configuration: configuration, thread: thread)
        self.thread = thread
        self.core = core
        self.interruption = core.state.interrupt
    }

    /// Starts compiling, on another thread, what every host compiles as it starts (the `portolan`
    /// module) and then `app`, when given, as `loadApp(source:chunkName:)` will: a host created next
    /// finds them compiled (the hosts of a process share their compiled chunks). For a program's
    /// start-up on more than one core, such as the REPL's; nothing changes but when the work is done.
    public nonisolated static func prepare(app: (source: String, chunkName: String)? = nil) {
        // The module's parts whose bytecode the binary holds load without compiling: only the rest.
        var chunks = PortolanModule.partsInLoadOrder.filter { PrecompiledModule.chunk(for: $0) == nil }
            .map { (source: $0.source, chunkName: $0.chunkName) }
        if let app { chunks.append((source: Array(app.source.utf8), chunkName: app.chunkName)) }
        CompiledChunks.prepare(chunks)
    }

    /// Whether `bytecode`, the tools' build of their own chunk `source` by `scripts/compile-module.lua`
    /// (listed in the `manifest` it wrote), stands for it under the running Lua release; when it does,
    /// the hosts of this process load it from then on instead of compiling `source` (issue 24: the
    /// REPL's demo app, the expect library of every scenario's host). Never bytes a script or a file
    /// supplied: Lua does not verify bytecode. When it does not, `source` is compiled as before.
    @discardableResult
    package nonisolated static func useBuiltInBytecode(
        _ bytecode: [UInt8], of source: [UInt8], chunkName: String, manifest: [UInt8]
    ) -> Bool {
        guard let chunk = builtInBytecode(bytecode, of: source, chunkName: chunkName, manifest: manifest) else { return false }
        CompiledChunks.preload(chunk, source: source)
        return true
    }

    /// `bytecode` as a chunk when it stands for `source` (see `useBuiltInBytecode`), else nil.
    package nonisolated static func builtInBytecode(
        _ bytecode: [UInt8], of source: [UInt8], chunkName: String, manifest: [UInt8]
    ) -> LuaCompiledChunk? {
        PrecompiledModule.chunk(source: source, bytecode: bytecode, chunkName: chunkName, manifest: manifest)
    }

    /// Runs `body` as one unit of work on the host's thread (GRDB's `DatabaseQueue.write`): the
    /// calls it makes on `host` run back to back, with nothing else of this host in between, and
    /// without returning to Swift's cooperative pool between them (a busy pool cannot slow it).
    public func perform<T: Sendable, E: Error>(_ body: @Sendable (isolated PortolanHost) throws(E) -> T) throws(E) -> T {
        try body(self)
    }

    // MARK: Loading and running scripts

    /// Loads an app's rules (the script declares the graph with `portolan.app`): how every command
    /// and every embedder loads an app, from a file, from text, or from a file's text a tool
    /// rewrote. A file's directory is where `require` finds its modules (unless the configuration
    /// names another) and where `portolan.load` finds files. `instructionBudget`, when given,
    /// bounds the script's main flow for this load instead of the configuration's budget. They
    /// become the rules in service, which `reload()` runs again.
    public func loadApp(_ rules: AppRules, instructionBudget: Int? = nil) throws(HostError) {
        if let directory = rules.directory { try core.files.useAppDirectory(directory) }
        core.rulesInService = rules
        try withScriptBudget(instructionBudget) { () throws(HostError) in _ = try core.drive(try core.chunk(of: rules), []) }
    }

    /// Hot reload: runs the rules in service again, or `rules` instead (which then serve), after
    /// dropping the modules the app required from its directory, so that an edit to one takes
    /// effect. The one rules change (`RulesReload`): the live tree is carried to the new rules,
    /// kept stacks included, as a restore carries a snapshot, and `portolan.state` as the session
    /// left it (the keys the new rules name added, those they no longer name dropped); each
    /// screen that no longer exists leaves through its `leave` handler, by the rules that entered
    /// it, and the result says so, then what the new guards made of the active path, asked again
    /// as ``refresh()`` asks them. A reload that fails (a syntax error, a bad graph, a `leave`
    /// that fails) throws and keeps the previous rules, tree and state: what left comes back. A
    /// reload asked for while a route runs waits for it: one route never sees two versions.
    @discardableResult
    public func reload(_ rules: AppRules? = nil, instructionBudget: Int? = nil) throws(HostError) -> ReloadResult {
        guard let rules = rules ?? core.rulesInService else { throw HostError("no rules to reload: no app was loaded") }
        return try withScriptBudget(instructionBudget) { () throws(HostError) in
            try RulesReload.run(in: core, rules)
        }
    }

    /// Runs `body` with main flows bounded by `budget` (when given) instead of the configuration's.
    private func withScriptBudget<T>(_ budget: Int?, _ body: () throws(HostError) -> T) throws(HostError) -> T {
        guard let budget else { return try body() }
        core.runner.scriptInstructionBudget = budget
        defer { core.runner.scriptInstructionBudget = core.configuration.scriptInstructionBudget }
        return try body()
    }

    /// How many chunks of Lua text the host has loaded (typed, run or evaluated).
    package var chunksLoaded: Int { core.chunksLoaded }

    /// The files the app is made of, for a watcher: the app file, every file `portolan.load` ran,
    /// and every module it required from its directory.
    public var appFiles: [String] {
        core.appFiles
    }

    /// The rules in service, as they were loaded; nil before any.
    public var rules: AppRules? { core.rulesInService }

    /// The app file of the rules in service, which `reload()` runs again; nil for rules given as text.
    public var appFile: String? { core.appFile }

    /// Runs a chunk as a script's main flow; returns the printed form of what it returns, as the
    /// REPL shows it. ``call(_:chunkName:arguments:environment:)`` returns the values themselves.
    @discardableResult
    public func run(_ source: String, chunkName: String) throws(HostError) -> [String] {
        try show(try core.loadChunk(source, chunkName: chunkName))
    }

    /// Runs a file as a script's main flow; returns the printed form of what it returns.
    @discardableResult
    public func run(file path: String) throws(HostError) -> [String] {
        try show(try core.files.load(path))
    }

    /// Runs a tool's chunk that wraps functions of the `portolan` module (the linter's prelude
    /// records each `portolan.app`): the module is read-only to scripts, and writable only here.
    /// The chunk runs in the host's environment, as the module does.
    package func extendModule(running source: String, chunkName: String, arguments: [LuaValue] = []) throws(HostError) {
        let chunk = try core.loadChunk(source, chunkName: chunkName, environment: .host)
        do {
            _ = try core.state.withReadOnlyTablesWritable { () throws(HostError) in try core.drive(chunk, arguments) }
        } catch let error as HostError {
            throw error
        } catch {
            throw HostError("\(error)")
        }
    }

    /// Evaluates REPL input as lua.c does: as an expression first (`return input`), then as a
    /// statement. Returns the printed form of each result; `isIncompleteInput` on the error means
    /// the statement continues on the next line.
    public func evaluate(_ input: String, chunkName: String = "=stdin") throws(HostError) -> [String] {
        let chunk: LuaValue
        if let expression = try? core.loadChunk("return " + input, chunkName: chunkName) {
            chunk = expression
        } else {
            chunk = try core.loadChunk(input, chunkName: chunkName)
        }
        return try show(chunk)
    }

    /// Runs the chunk `source` as a script's main flow with `arguments` as its `...`, and returns the
    /// values it returns: how Swift hands values to Lua (never spliced into source). `chunkName`
    /// names it in errors (`swift:1:` unless given); a `String` is source, a function value goes to
    /// ``call(_:_:)``. Lua values stay on the host's thread (not `Sendable`): call it in `perform`.
    /// A tool's own chunk runs in the host's environment (`.host`), so that what it calls is what
    /// the sandbox gave, whatever globals the app rebinds.
    @discardableResult
    public func call(
        _ source: String, chunkName: String = "=swift", arguments: [LuaValue] = [],
        environment: LuaChunkEnvironment = .globals
    ) throws(HostError) -> [LuaValue] {
        try core.drive(try core.loadChunk(source, chunkName: chunkName, environment: environment), arguments)
    }

    /// The text chunk `source` as a function whose globals are the upvalue of `holder`, like Lua's
    /// `load(source, chunkName, "t", globals)`, but compiled once per process (`CompiledChunks`):
    /// every fresh host of a test run that loads the same scenario file skips the parser.
    public func function(
        compiling source: [UInt8], chunkName: String, globalsOf holder: LuaValue
    ) throws(HostError) -> LuaValue {
        do {
            let function = try CompiledChunks.function(source, chunkName: chunkName, in: core.state)
            try core.state.setEnvironment(of: function, toTheUpvalueOf: holder)
            return function
        } catch {
            throw HostError(error)
        }
    }

    /// Calls a Lua function as a script's main flow and returns what it returns.
    public func call(_ function: LuaValue, _ arguments: [LuaValue] = []) throws(HostError) -> [LuaValue] {
        try core.drive(function, arguments)
    }

    /// A Swift function as a Lua value, to pass to a chunk (``call(_:chunkName:arguments:environment:)``).
    /// It runs on the host's thread, inside the unit of work that called it.
    public func function(_ body: @escaping @Sendable ([LuaValue]) throws -> [LuaValue]) throws(HostError) -> LuaValue {
        let thread = self.thread
        do {
            return try core.state.function { arguments in try thread.callingOut { try body(arguments) } }
        } catch {
            throw HostError(error)
        }
    }

    /// Whether `source` compiles (nothing runs).
    public func compiles(_ source: String, chunkName: String) -> Bool {
        (try? core.loadChunk(source, chunkName: chunkName)) != nil
    }

    /// `shown(t)`: the table a read-only view shows, or `t` (LuaState.shownTableFunction), for tools
    /// that list keys raw.
    package var shownTableFunction: LuaValue {
        get throws(HostError) {
            do {
                return try core.state.shownTableFunction()
            } catch {
                throw HostError(error)
            }
        }
    }

    /// The module's printer of values, `function(value, compact)`, for tools that show values in Lua.
    package var valuePrinter: LuaValue {
        get throws(HostError) { try core.module.show }
    }

    /// The order the printer lists a table's keys in, `function(table) -> keys`.
    package var keyOrder: LuaValue { (core.installed?.sortedKeys ?? .nil) }

    /// Runs a chunk as a main flow and returns its results as the REPL prints them.
    private func show(_ chunk: LuaValue) throws(HostError) -> [String] {
        let shown = try core.drive(try core.module.runAndShow, [chunk])
        return shown.map { $0.stringValue ?? "\($0)" }
    }

    /// The router of the declared app, for its tree and event stream; nil before `portolan.app`.
    /// Its routes run on this host's thread, in turn with the host's own units.
    public var router: Router? { core.router }

    /// Bytes the host's Lua state holds now, after a full garbage collection when
    /// `collectingGarbage` (what a soak compares from its start to its end).
    public func luaMemoryUsed(collectingGarbage: Bool = false) -> Int {
        if collectingGarbage { try? core.state.collectGarbage() }
        return core.state.memoryUsed
    }

    /// The declared graph; nil before `portolan.app`.
    public var graph: NavigationGraph? { core.app.declaration?.graph }

    /// The root's `explore` option: what `portolan explore` tries (docs/explore.md).
    public var exploreDeclaration: ExploreDeclaration { core.app.explore }

    /// The app's flows, the script's then those added from Swift, in the order they are asked.
    public var flows: [Flow] { core.router?.flows ?? [] }

    /// The app's flows, a line each (`flow movies: movie_picked, settings_wanted`), as
    /// `portolan graph` shows them.
    public var flowLines: [String] {
        flows.map { flow in "flow \(flow.name): " + flow.steps.joined(separator: ", ") + (flow.adapt == nil ? "" : " (adapts steps)") }
    }

    /// The rules each node of the declared app has in Lua, by name (`guard`, `can_leave`,
    /// `context_task`): what may stop or change a route there, as `portolan graph` shows it.
    public var nodeRules: [NodeID: [String]] {
        let rules: Set<HandlerName> = [.guard, .canLeave, .contextTask]
        return (core.app.declaration?.handlers ?? [:]).mapValues { names in
            HandlerName.allCases.filter { rules.contains($0) && names.contains($0) }.map(\.rawValue)
        }
    }

    /// The app's redirect rules in declaration order, as `portolan graph` shows them: a pattern
    /// rule's pattern and template; both nil for a rule written as a Lua function.
    public var redirectRules: [GraphAppRules.Redirect] {
        core.app.rules.redirectRules.map { rule in
            switch rule {
            case .pattern(let from, let to): return GraphAppRules.Redirect(from: from, to: to)
            case .function: return GraphAppRules.Redirect(from: nil, to: nil)
            }
        }
    }

    // MARK: Embedding

    /// Binds a Swift object to a node id declared in Lua; it handles that node instead of Lua.
    /// Its `async` handlers run on the cooperative pool while the route waits for them.
    public func bind(_ node: any Routable, to id: NodeID) {
        core.bind(node, to: id)
    }

    /// Adds a flow (`Flow`): asked after the script's flows, it survives reloads, as bound Swift
    /// nodes do.
    public func addFlow(_ flow: Flow) {
        core.addFlow(flow)
    }

    /// Makes a Swift function callable from Lua as the global `name`. It runs on the host's thread,
    /// inside the unit of work that called it, so it must not wait for a call to this host: a task
    /// it starts that calls the host while it runs traps at once (docs/concurrency.md, rule 5).
    public func register(function name: String, _ body: @escaping HostFunction) throws(HostError) {
        try core.register(function: name, body)
    }

    /// The ids Swift objects are bound to, and the functions registered: what a rules bundle's
    /// `requires` is checked against (docs/bundles.md).
    public var swiftNodeIDs: Set<NodeID> { Set(core.app.swiftNodes.keys) }
    public var registeredFunctionNames: Set<String> { Set(core.registeredFunctions.keys) }
    /// The functions registered, by name: what a rules bundle's gate registers in its own hosts.
    public var registeredFunctions: [String: HostFunction] { core.registeredFunctions }

    /// Where `print` output and observer failures go (standard output by default).
    public func setOutput(_ output: @escaping @Sendable (String) -> Void) {
        core.observers.output = output
    }

    /// The running scenario file's directory, which `portolan.load` may load from besides the app's.
    public func setScriptDirectory(_ directory: String?) {
        core.files.scriptDirectory = directory
    }
}
