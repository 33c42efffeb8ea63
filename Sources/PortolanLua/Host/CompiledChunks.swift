import Lua
import Synchronization

/// Chunks compiled once per process and loaded as bytecode after that: the `portolan` module, the
/// expect library, the app and the scenario files, which every fresh host of a test run loads
/// again. Keyed by name and text, so a file that changed is compiled anew.
enum CompiledChunks {
    private struct Key: Hashable {
        let chunkName: String
        let source: [UInt8]

        // The bytes in one go: hashing an array element by element cost more than loading the chunk.
        func hash(into hasher: inout Hasher) {
            hasher.combine(chunkName)
            source.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Entries kept at most; past it the cache starts over (a long REPL session types many lines).
    private static let limit = 256
    private static let cache = Mutex<[Key: LuaCompiledChunk]>([:])

    /// `source` compiled as `chunkName`, loaded into `state` as a function.
    static func function(_ source: [UInt8], chunkName: String, in state: LuaState) throws(LuaError) -> LuaValue {
        let key = Key(chunkName: chunkName, source: source)
        if let compiled = cache.withLock({ $0[key] }) {
            return try state.load(compiled)
        }
        let compiled = try state.compile(source, chunkName: chunkName)
        cache.withLock { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = compiled
        }
        return try state.load(compiled)
    }
}
