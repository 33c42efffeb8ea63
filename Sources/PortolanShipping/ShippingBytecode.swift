import PortolanLua

/// The gate's own Lua chunks as bytecode built into the binary by `scripts/compile-module.lua`
/// (`BuiltInChunk`): the expect library every scenario's host runs and the linter's prelude. The
/// tools run them too, from here.
enum ShippingBytecode {
    static let expectLibrary = BuiltInChunk(
        source: PackageResources.ExpectLibrary_lua, bytecode: PackageResources.ExpectLibrary_luac,
        chunkName: expectLibraryChunkName, manifest: PackageResources.manifest_txt)
    static let checkPrelude = BuiltInChunk(
        source: PackageResources.CheckPrelude_lua, bytecode: PackageResources.CheckPrelude_luac,
        chunkName: checkPreludeChunkName, manifest: PackageResources.manifest_txt)

    /// Every chunk the script compiles for the shipping target, as it lists them.
    static var all: [BuiltInChunk] { [expectLibrary, checkPrelude] }

    // Once per process each (a static `let` runs its initializer once, on first use).
    static let expectLibraryInUse = expectLibrary.use()
    static let checkPreludeInUse = checkPrelude.use()
}
