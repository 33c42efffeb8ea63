import TestSupport

/// The mutations the document fuzzers make (the restore's and the bundle reader's): one to four of
/// a bit flip, a deletion, a cut, a hostile insert, a change aimed at the format (`targeted`), a
/// duplicated run, or a byte of the format's punctuation.
enum ByteMutation {
    static func mutate(
        _ original: [UInt8], hostile: [[UInt8]], punctuation: [UInt8], with random: inout SeededRandom,
        targeted: (inout [UInt8], _ at: Int, inout SeededRandom) -> Void
    ) -> [UInt8] {
        var bytes = original
        for _ in 0..<(1 + random.below(4)) {
            guard !bytes.isEmpty else { break }
            let at = random.below(bytes.count)
            switch random.below(7) {
            case 0: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(16)))
            case 2: bytes = Array(bytes.prefix(at))
            case 3: bytes.insert(contentsOf: random.pick(hostile) ?? [], at: at)
            case 4: targeted(&bytes, at, &random)
            case 5:
                let end = min(bytes.count, at + 1 + random.below(64))
                bytes.insert(contentsOf: bytes[at..<end], at: random.below(bytes.count))
            default:
                bytes[at] = random.pick(punctuation) ?? 0
            }
        }
        return bytes
    }
}
