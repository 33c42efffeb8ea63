#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Lua
import Synchronization

/// Chunks compiled once per process and loaded as bytecode after that: the `portolan` module, the
/// expect library, the app and the scenario files, which every fresh host of a test run loads
/// again. Keyed by name and text, so a file that changed is compiled anew.
enum CompiledChunks {
    /// What the cache is keyed by: the name and a digest of the text, worked out before the lock is
    /// taken. Hashing the text under the lock (80 KB of the module, the expect library and the
    /// scenario file for every scenario's host) was what `portolan test --jobs 2` queued on.
    private struct Key: Hashable {
        let chunkName: String
        let digest: UInt64

        init(chunkName: String, source: [UInt8]) {
            self.chunkName = chunkName
            digest = CompiledChunks.digest(source)
        }
    }

    /// A compiled chunk and the text it was compiled from, compared in full (outside the lock) with
    /// the text looked up, so that two texts with one digest never share bytecode.
    private struct Entry {
        let source: [UInt8]
        let compiled: LuaCompiledChunk
    }

    /// Entries kept at most; past it the cache starts over (a long REPL session types many lines).
    private static let limit = 256
    private static let cache = Mutex<[Key: Entry]>([:])

    /// `source` compiled as `chunkName`, loaded into `state` as a function with `environment`.
    /// `precompiled`, the host's own bytecode of that very source (`PrecompiledModule`), spares the
    /// first compilation when it loads; when it does not, the source is compiled as before.
    static func function(
        _ source: [UInt8], chunkName: String, in state: LuaState, environment: LuaChunkEnvironment = .globals,
        precompiled: LuaCompiledChunk? = nil
    ) throws(LuaError) -> LuaValue {
        let key = Key(chunkName: chunkName, source: source)
        if let entry = cached(key), sameBytes(entry.source, source) {
            return try state.load(entry.compiled, environment: environment)
        }
        if let precompiled, let function = try? state.load(precompiled, environment: environment) {
            store(Entry(source: source, compiled: precompiled), for: key)
            return function
        }
        let compiled = try state.compile(source, chunkName: chunkName)
        store(Entry(source: source, compiled: compiled), for: key)
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
                if let entry = cached(key), sameBytes(entry.source, chunk.source) { return }
                guard let compiled = try? scratch.compile(chunk.source, chunkName: chunk.chunkName) else { continue }
                store(Entry(source: chunk.source, compiled: compiled), for: key)
            }
        }
    }

    /// Puts `compiled`, the host's own bytecode of `source` (`PrecompiledModule`), in the cache, so
    /// that whichever host loads `source` next loads it without compiling.
    static func preload(_ compiled: LuaCompiledChunk, source: [UInt8]) {
        store(Entry(source: source, compiled: compiled), for: Key(chunkName: compiled.chunkName, source: source))
    }

    // The cache is touched only in these two functions, so that ThreadSanitizer's suppressions can
    // name its critical sections (scripts/sanitize/tsan.supp).
    private static func cached(_ key: Key) -> Entry? {
        cache.withLock { $0[key] }
    }

    private static func store(_ entry: Entry, for key: Key) {
        cache.withLock { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = entry
        }
    }

    /// Whether two texts are the same bytes: one `memcmp`, where `==` on arrays goes byte by byte.
    private static func sameBytes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBytes { first in
            second.withUnsafeBytes { second in
                guard let a = first.baseAddress, let b = second.baseAddress else { return true }   // both empty
                return a == b || memcmp(a, b, first.count) == 0
            }
        }
    }

    /// A digest of `bytes`, eight at a time in four independent lanes (a few times faster than
    /// `Hasher`'s SipHash over the bytes): it only finds the entry, whose text is then compared.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (UInt64(raw.count), 1, 2, 3)
            var offset = 0
            while offset + 32 <= raw.count {
                lanes.0 = (lanes.0 ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                lanes.1 = (lanes.1 ^ raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* multiplier
                lanes.2 = (lanes.2 ^ raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* multiplier
                lanes.3 = (lanes.3 ^ raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* multiplier
                lanes.0 ^= lanes.0 >> 29
                lanes.1 ^= lanes.1 >> 29
                lanes.2 ^= lanes.2 >> 29
                lanes.3 ^= lanes.3 >> 29
                offset += 32
            }
            var hash = lanes.0 ^ (lanes.1 &* 31) ^ (lanes.2 &* 961) ^ (lanes.3 &* 29_791)
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* multiplier
                offset += 1
            }
            return hash ^ (hash >> 32)
        }
    }
}
