import Lua
import Portolan

/// The `portolan` module, installed in a host's Lua state: its parts compiled in the host's
/// environment and given what they need as chunk arguments, then the module preloaded and made a
/// read-only global. What the host keeps of it is the functions it calls back and the printer's
/// key order.
struct InstalledModule {
    let functions: ModuleFunctions
    /// The printer's key order, `function(table) -> keys` (`ValuePrinter.lua`).
    let sortedKeys: LuaValue

    /// Installs the module in `state`; `bridge` is the table of Swift functions it calls
    /// (`ModuleBridge`).
    init(in state: LuaState, bridge: LuaValue) throws {
        // The module's chunks raise a script's misuse at the script's line, never at their own.
        try state.setLibraryChunk(PortolanModule.chunkName)
        let printer = try Self.run(PortolanModule.printer, [try state.rawMetatableFunction()], in: state)
        guard printer.count == 2 else { throw HostError("the printer of values returned \(printer.count) values") }
        sortedKeys = printer[1]
        let checkers = try Self.run(
            PortolanModule.nodeDescription,
            [.array(HandlerName.allCases.map { .string($0.rawValue) }), .integer(Int64(NavigationGraph.maximumDepth)),
             .array(RootOption.allCases.map { .string($0.rawValue) }), .array(LaunchMode.allCases.map { .string($0.rawValue) }),
             .array(TabBackBehavior.allCases.map { .string($0.rawValue) })],
            in: state)
        guard checkers.count == 2 else { throw HostError("the node-table checkers returned \(checkers.count) values") }
        let chunk = try Self.load(PortolanModule.main, in: state)
        let urlRules = try Self.run(PortolanModule.urlRules, [], in: state).first ?? .nil
        let flows = try Self.run(PortolanModule.flows, [], in: state).first ?? .nil
        let appState = try Self.run(
            PortolanModule.appState, [.integer(Int64(PortolanModule.maximumStateDepth))], in: state).first ?? .nil
        let decisions = try Self.run(PortolanModule.decisions, [], in: state).first ?? .nil
        let snapshots = try Self.run(PortolanModule.snapshots, [], in: state).first ?? .nil
        let stack = try Self.run(PortolanModule.stack, [], in: state).first ?? .nil
        let events = LuaValue.array(RouterEvent.Name.observedByScripts.map { .string($0.rawValue) })
        let results = try state.call(chunk, [bridge, printer[0], checkers[0], checkers[1], urlRules, flows, appState, decisions, snapshots, stack, events])
        guard results.count == 2 else { throw HostError("the portolan module returned \(results.count) values") }
        functions = try ModuleFunctions(results[0])
        try state.preload(name: "portolan", function: results[1])
        try state.run(#"portolan = require "portolan""#, chunkName: "=portolan")
        // Shared by every script in the state, as the standard libraries are: read-only to them.
        try state.makeReadOnly(global: "portolan", description: "the portolan module")
    }

    /// What a part of the module returns. Each runs in the host's environment, as the module does:
    /// what they call is what the sandbox gave, whatever globals an app rebinds.
    private static func run(_ part: PortolanModule.Part, _ arguments: [LuaValue], in state: LuaState) throws -> [LuaValue] {
        try state.call(try load(part, in: state), arguments)
    }

    /// A part as a function in the host's environment: from the binary's bytecode when it matches
    /// the part's source and the Lua release (`PrecompiledModule`), else compiled.
    private static func load(_ part: PortolanModule.Part, in state: LuaState) throws -> LuaValue {
        try CompiledChunks.function(
            part.source, chunkName: part.chunkName, in: state, environment: .host,
            precompiled: PrecompiledModule.chunk(for: part))
    }
}
