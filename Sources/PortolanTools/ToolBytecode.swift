import PortolanLua

/// The tools' own Lua chunks as bytecode built into the binary by `scripts/compile-module.lua`
/// (`BuiltInChunk`): the demo app the REPL starts with and its completion helper. The chunks the
/// gate runs too, the expect library and the linter's prelude, are the shipping target's
/// (`ShippingBytecode`).
enum ToolBytecode {
    static let demoApp = BuiltInChunk(
        source: PackageResources.DemoApp_lua, bytecode: PackageResources.DemoApp_luac, chunkName: DemoApp.chunkName,
        manifest: PackageResources.manifest_txt)
    static let replKeys = BuiltInChunk(
        source: PackageResources.ReplKeys_lua, bytecode: PackageResources.ReplKeys_luac, chunkName: replKeysChunkName,
        manifest: PackageResources.manifest_txt)

    /// Every chunk the script compiles for the tools, as it lists them.
    static var all: [BuiltInChunk] { [demoApp, replKeys] }

    // Once per process each (a static `let` runs its initializer once, on first use).
    static let demoAppInUse = demoApp.use()
    static let replKeysInUse = replKeys.use()
}
