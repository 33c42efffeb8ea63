import Lua

/// The `portolan` module's parts as bytecode built into the binary (`scripts/compile-module.lua`),
/// so that a host's start loads them instead of parsing about 46 KB of Lua: parsing was 6.4 M of
/// the REPL's 18.5 M start-up instructions (issue 24). A part's bytecode is used only when the
/// manifest says it was compiled from this very source (its FNV-1a hash) by the Lua release this
/// process runs; otherwise the host parses the source, as it always did. Only the host's own
/// bytecode is ever loaded this way: a script's `load` still refuses binary chunks.
enum PrecompiledModule {
    /// The release the bytecode was compiled by, and each part's source hash by chunk name.
    private static let manifest = manifest(PackageResources.manifest_txt)

    /// A `manifest.txt` as `scripts/compile-module.lua` writes it: the Lua release, then a line per
    /// chunk with its name and the FNV-1a hash of its source.
    private static func manifest(_ bytes: [UInt8]) -> (release: Substring, hashes: [Substring: UInt64]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n")
        var hashes: [Substring: UInt64] = [:]
        for line in lines.dropFirst() {
            // The chunk name may hold spaces ("=portolan check"): the hash is the last field.
            guard let space = line.lastIndex(of: " "), let hash = UInt64(line[line.index(after: space)...], radix: 16)
            else { continue }
            hashes[line[..<space]] = hash
        }
        return (lines.first ?? "", hashes)
    }

    /// The bytecode of another target's own chunk (the tools' expect library, demo app…), written
    /// by the same script with a manifest of its own, when it stands for `source` under the running
    /// Lua release: the check `chunk(for:)` makes for the module's parts.
    static func chunk(source: [UInt8], bytecode: [UInt8], chunkName: String, manifest text: [UInt8]) -> LuaCompiledChunk? {
        check(PortolanModule.Part(source: source, bytecode: bytecode, chunkName: chunkName), against: manifest(text))
    }

    /// `part`'s bytecode when it stands for `part.source` under the running Lua release; nil when
    /// the source changed since `scripts/compile-module.lua` ran, or the library is another release.
    static func chunk(for part: PortolanModule.Part) -> LuaCompiledChunk? {
        // The module's own parts are checked once per process (`==` on the same array is O(1)).
        if let built = checkedParts[part.chunkName], built.source == part.source, built.bytecode == part.bytecode {
            return built.chunk
        }
        return check(part)
    }

    /// The module's parts as built, each with its bytecode when usable.
    private static let checkedParts: [String: (source: [UInt8], bytecode: [UInt8], chunk: LuaCompiledChunk?)] =
        Dictionary(
            PortolanModule.partsInLoadOrder.map { ($0.chunkName, ($0.source, $0.bytecode, check($0))) },
            uniquingKeysWith: { first, _ in first })

    private static func check(
        _ part: PortolanModule.Part, against manifest: (release: Substring, hashes: [Substring: UInt64]) = manifest
    ) -> LuaCompiledChunk? {
        guard manifest.release == LuaState.release, !part.bytecode.isEmpty,
            manifest.hashes[Substring(part.chunkName)] == fnv1a(part.source)
        else { return nil }
        return LuaCompiledChunk(hostBytecode: part.bytecode, chunkName: part.chunkName)
    }

    /// FNV-1a, 64 bits, as `scripts/compile-module.lua` computes it.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
