import Portolan

/// The Lua half of the `portolan` module (`portolan.lua`, beside this file), compiled into the
/// host by SwiftPM's `embedInCode`: Lua source lives in a `.lua` file that `luacheck` checks, not
/// in a Swift string.
enum PortolanModule {
    /// The chunk name errors raised inside the module carry.
    static let chunkName = "=portolan"

    static var source: [UInt8] { PackageResources.portolan_lua }
    /// The module's main chunk, `portolan.lua`, which gets the other parts as chunk arguments.
    static let main = Part(source: source, bytecode: PackageResources.portolan_luac, chunkName: chunkName)

    /// The module's parts in files of their own, each a chunk that returns a function the module
    /// gets as a chunk argument: the printer of values the module and the tools share, and the
    /// checkers of node tables and of the root's options (given the handler fields).
    static let printer = Part(source: PackageResources.ValuePrinter_lua, bytecode: PackageResources.ValuePrinter_luac, chunkName: "=portolan.printer")
    static let nodeDescription = Part(
        source: PackageResources.NodeDescription_lua, bytecode: PackageResources.NodeDescription_luac, chunkName: "=portolan.nodes")
    /// Flows and steps (RxFlow): which flow a step leads through, and where.
    static let flows = Part(source: PackageResources.Flows_lua, bytecode: PackageResources.Flows_luac, chunkName: "=portolan.flows")
    /// `portolan.snapshot` and `portolan.restore` (docs/snapshots.md).
    static let snapshots = Part(
        source: PackageResources.Snapshots_lua, bytecode: PackageResources.Snapshots_luac, chunkName: "=portolan.snapshots")
    /// `portolan.push` and `portolan.back`: a push's options and back's distances, read at the caller's line.
    static let stack = Part(source: PackageResources.Stack_lua, bytecode: PackageResources.Stack_luac, chunkName: "=portolan.stack")
    /// The module's URL functions (redirect_rule, match); the rules themselves live in the host.
    static let urlRules = Part(source: PackageResources.URLRules_lua, bytecode: PackageResources.URLRules_luac, chunkName: "=portolan.urls")

    /// Guards and interceptors: portolan.deny, portolan.redirect, portolan.intercept, and asking them.
    static let decisions = Part(
        source: PackageResources.Decisions_lua, bytecode: PackageResources.Decisions_luac, chunkName: "=portolan.decisions")
    /// The app's state (`portolan.state`, `portolan.initial_state`), which reloads keep.
    static let appState = Part(source: PackageResources.AppState_lua, bytecode: PackageResources.AppState_luac, chunkName: "=portolan.state")
    /// How many tables deep the app's state may nest: plain data that snapshots save and give back.
    static let maximumStateDepth = SnapshotLimits.maximumStateNesting

    /// Every chunk of the module, in the order `InstalledModule` compiles them.
    static var partsInLoadOrder: [Part] {
        [printer, nodeDescription, main, urlRules, flows, appState, decisions, snapshots, stack]
    }

    struct Part {
        let source: [UInt8]
        /// The same source compiled by `scripts/compile-module.lua` (`PrecompiledModule`).
        let bytecode: [UInt8]
        let chunkName: String
    }
}
