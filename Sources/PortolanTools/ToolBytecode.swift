import PortolanLua

/// The tools' own Lua chunks as bytecode built into the binary by `scripts/compile-module.lua`, the
/// mechanism the `portolan` module's parts load by (`PrecompiledModule`): the demo app the REPL
/// starts with, its completion helper, the expect library every scenario's host runs and the
/// linter's prelude. Each is handed to the hosts at most once per process, the first time a
/// command needs it; a chunk whose source changed since the script ran, or a Lua library of another
/// release, is parsed as before. Only these chunks: a script's `load` still refuses binary chunks.
enum ToolBytecode {
    /// One chunk: its source as built in, its bytecode, the chunk name it runs under.
    struct Chunk: Sendable {
        let source: [UInt8]
        let bytecode: [UInt8]
        let chunkName: String

        /// Hands the bytecode to the hosts when it stands for the source; whether it did.
        fileprivate func use() -> Bool {
            PortolanHost.useBuiltInBytecode(bytecode, of: source, chunkName: chunkName, manifest: PackageResources.manifest_txt)
        }
    }

    static let demoApp = Chunk(source: PackageResources.DemoApp_lua, bytecode: PackageResources.DemoApp_luac, chunkName: DemoApp.chunkName)
    static let replKeys = Chunk(source: PackageResources.ReplKeys_lua, bytecode: PackageResources.ReplKeys_luac, chunkName: replKeysChunkName)
    static let expectLibrary = Chunk(
        source: PackageResources.ExpectLibrary_lua, bytecode: PackageResources.ExpectLibrary_luac, chunkName: expectLibraryChunkName)
    static let checkPrelude = Chunk(
        source: PackageResources.CheckPrelude_lua, bytecode: PackageResources.CheckPrelude_luac, chunkName: checkPreludeChunkName)

    /// Every chunk the script compiles for the tools, as it lists them.
    static var all: [Chunk] { [demoApp, replKeys, expectLibrary, checkPrelude] }

    // Once per process each (a static `let` runs its initializer once, on first use).
    static let demoAppInUse = demoApp.use()
    static let replKeysInUse = replKeys.use()
    static let expectLibraryInUse = expectLibrary.use()
    static let checkPreludeInUse = checkPrelude.use()
}
