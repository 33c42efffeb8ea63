/// The trie's patterns made only of constants, without a scheme and host, found by a hash of the
/// whole path: a URL that is a plain path (``URLReader/Layout/plainPathHash``) and one of these
/// is matched in one probe, before its segments are made into strings.
///
/// It is an index of the trie, not a second matcher: it answers only what the trie's walk would.
/// The walk tries constants first at every segment, so a URL whose segments are exactly a
/// constant pattern's ends at that pattern's node; patterns naming a host are tried first only for
/// URLs with a scheme, which are never plain paths. Byte equality is string equality only for
/// ASCII, so only keys of printable ASCII are held (and only ASCII URLs are plain): a key with `/`
/// (a constant written `%2F`), `%`, `?` or `#` could never equal a plain path's segment and is left
/// to the trie. A URL the index does not hold goes to the trie, so whatever it leaves out still
/// matches as before. Keys are the trie's own (lowercased when it is case-insensitive); the hash
/// folds ASCII case, so one hash serves both kinds of trie, and the comparison decides.
///
/// Open addressing with linear probing, at most half full: the keys are the app's patterns, so
/// the clusters a probe walks are fixed when the matcher is built, whatever the URL.
struct ConstantPaths: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64
        var route: Int32
        var keyStart: Int
        var keyEnd: Int
    }

    let caseInsensitive: Bool
    /// Indices into `entries`, -1 for an empty slot; a power of two long, or empty.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    /// Every key's bytes, its segments joined by `/`, one after the other.
    private var keys: [UInt8] = []

    init(caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
    }

    // MARK: The hash

    /// The hash of no segment (the root, `/`): FNV-1a's offset basis.
    static let emptyHash: UInt64 = 0xCBF2_9CE4_8422_2325

    /// FNV-1a of `byte`, with ASCII letters folded to lowercase.
    @inline(__always)
    static func mix(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        let folded = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
        return (hash ^ UInt64(folded)) &* 0x0000_0100_0000_01B3
    }

    static func hash(_ key: some Sequence<UInt8>) -> UInt64 {
        key.reduce(emptyHash, mix)
    }

    // MARK: Inserting

    /// Registers the pattern of `route` whose constants are `segments` (the trie's keys), unless a
    /// segment has a byte a plain path's segment cannot have.
    mutating func insert(_ segments: [String], route: Int32) {
        var key: [UInt8] = []
        for segment in segments {
            for byte in segment.utf8 {
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "/"), byte != UInt8(ascii: "%"),
                    byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#")
                else { return }
            }
            if !key.isEmpty { key.append(UInt8(ascii: "/")) }
            key.append(contentsOf: segment.utf8)
        }
        entries.append(Entry(hash: Self.hash(key), route: route, keyStart: keys.count, keyEnd: keys.count + key.count))
        keys.append(contentsOf: key)
        if entries.count * 2 > slots.count { rehash(capacity: max(16, slots.count * 2)) }
        else { place(entries.count - 1) }
    }

    private mutating func rehash(capacity: Int) {
        slots = Array(repeating: -1, count: capacity)
        for index in entries.indices { place(index) }
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[index].hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: index)
    }

    // MARK: Looking up

    /// The route whose constants are the segments of `path`, a plain path whose hash is `hash`.
    func route(hash: UInt64, path: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard !slots.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] >= 0 {
                    let entry = entries[Int(slots[slot])]
                    if entry.hash == hash && equals(entry, path) { return entry.route }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// Whether `path`'s segments, joined by one `/`, are `entry`'s key (ASCII case aside when the
    /// trie is case-insensitive: its keys are lowercase).
    private func equals(_ entry: Entry, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        keys.withUnsafeBufferPointer { keys in
            var next = entry.keyStart
            var afterSegment = false
            var separated = false
            for byte in path {
                if byte == UInt8(ascii: "/") {
                    separated = afterSegment
                    continue
                }
                if separated {
                    guard next < entry.keyEnd, keys[next] == UInt8(ascii: "/") else { return false }
                    next += 1
                    separated = false
                }
                let compared = caseInsensitive && byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                guard next < entry.keyEnd, keys[next] == compared else { return false }
                next += 1
                afterSegment = true
            }
            return next == entry.keyEnd
        }
    }
}
