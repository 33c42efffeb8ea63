/// One of the tools' or the shipping gate's own Lua chunks, built into the binary twice: as source
/// and as the bytecode `scripts/compile-module.lua` made of it, listed in its target's manifest.
/// Handed to the hosts at most once per process, the first time a command needs it
/// (`PortolanHost.useBuiltInBytecode`); a chunk whose source changed since the script ran, or a
/// Lua library of another release, is parsed as before. Only these chunks: a script's `load`
/// still refuses binary chunks.
package struct BuiltInChunk: Sendable {
    package let source: [UInt8]
    package let bytecode: [UInt8]
    /// The chunk name it runs under.
    package let chunkName: String
    /// Its target's `Bytecode/manifest.txt`: the Lua release, and each chunk's source hash.
    package let manifest: [UInt8]

    package init(source: [UInt8], bytecode: [UInt8], chunkName: String, manifest: [UInt8]) {
        self.source = source
        self.bytecode = bytecode
        self.chunkName = chunkName
        self.manifest = manifest
    }

    /// Hands the bytecode to the hosts when it stands for the source; whether it did.
    package func use() -> Bool {
        PortolanHost.useBuiltInBytecode(bytecode, of: source, chunkName: chunkName, manifest: manifest)
    }
}
