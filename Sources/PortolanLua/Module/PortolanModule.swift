/// The Lua half of the `portolan` module (`portolan.lua`, beside this file), compiled into the
/// host by SwiftPM's `embedInCode`: Lua source lives in a `.lua` file that `luacheck` checks, not
/// in a Swift string.
enum PortolanModule {
    /// The chunk name errors raised inside the module carry.
    static let chunkName = "=portolan"

    static var source: [UInt8] { PackageResources.portolan_lua }

    /// The printer of values the module and the tools share (`ValuePrinter.lua`); its chunk returns
    /// the printer, which the module gets as its second argument.
    static let printerChunkName = "=portolan.printer"

    static var printerSource: [UInt8] { PackageResources.ValuePrinter_lua }
}
