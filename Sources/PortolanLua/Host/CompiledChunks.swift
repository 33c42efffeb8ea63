import Dispatch
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

    /// `source` compiled as `chunkName`, loaded into `state` as a function with `environment`.
    /// `precompiled`, the host's own bytecode of that very source (`PrecompiledModule`), spares the
    /// first compilation when it loads; when it does not, the source is compiled as before.
    static func function(
        _ source: [UInt8], chunkName: String, in state: LuaState, environment: LuaChunkEnvironment = .globals,
        precompiled: LuaCompiledChunk? = nil
    ) throws(LuaError) -> LuaValue {
        let key = Key(chunkName: chunkName, source: source)
        if let compiled = cached(key) {
            return try state.load(compiled, environment: environment)
        }
        if let precompiled, let function = try? state.load(precompiled, environment: environment) {
            store(precompiled, for: key)
            return function
        }
        let compiled = try state.compile(source, chunkName: chunkName)
        store(compiled, for: key)
        return try state.load(compiled, environment: environment)
    }

    /// Compiles into the cache, on a thread of Dispatch's global pool, those of `chunks` that are
    /// not there yet, the last first: a host that starts meanwhile compiles from the first one and
    /// finds compiled what this reached, so that with two cores each compiles about half (the
    /// REPL's start-up: Benchmarks/README.md, "Start-up"). Only when the work is done changes: the
    /// same text under the same name gives the same bytecode, and a chunk that does not compile is
    /// left for its host to compile and report.
    static func prepare(_ chunks: [(source: [UInt8], chunkName: String)]) {
        DispatchQueue.global(qos: .userInitiated).async {
            guard let scratch = try? LuaState() else { return }
            for chunk in chunks.reversed() {
                let key = Key(chunkName: chunk.chunkName, source: chunk.source)
                // A host working from the first chunk got here: it has compiled the rest.
                if cached(key) != nil { return }
                guard let compiled = try? scratch.compile(chunk.source, chunkName: chunk.chunkName) else { continue }
                store(compiled, for: key)
            }
        }
    }

    // The cache is touched only in these two functions, so that ThreadSanitizer's suppressions can
    // name its critical sections (scripts/sanitize/tsan.supp).
    private static func cached(_ key: Key) -> LuaCompiledChunk? {
        cache.withLock { $0[key] }
    }

    private static func store(_ compiled: LuaCompiledChunk, for key: Key) {
        cache.withLock { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = compiled
        }
    }
}
