import PortolanLua
import TestSupport

/// Mutated rules bundles fed to the bundle reader and verifier (`RulesBundle.verified`): the
/// property is that it returns for any bytes, and that a bundle it accepts is the one signed.
/// `BundleReaderTests` runs a short share; `Benchmarks/Sources/BundleFuzz` the long run.
public enum BundleFuzzer {
    public struct Report: Sendable {
        public var bundles = 0
        public var refused = 0
        /// Mutated bundles that verified though they differ from the signed one: must stay 0.
        public var forged = 0
    }

    /// Feeds `count` mutations of `original` (signed by `publicKey`), seeded by `seed`.
    public static func run(original: [UInt8], publicKey: BundlePublicKey, count: Int, seed: UInt64) -> Report {
        var random = SeededRandom(seed: seed)
        var report = Report()
        for _ in 0..<count {
            let mutated = mutate(original, with: &random)
            report.bundles += 1
            switch RulesBundle.verified(mutated, publicKey: publicKey) {
            case .success: if mutated != original { report.forged += 1 }
            case .failure: report.refused += 1
            }
        }
        return report
    }

    private static let hostile: [[UInt8]] = [
        [0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xFF], Array("{}".utf8), Array("[[[[[[[[".utf8),
        Array("\"../x.lua\"".utf8), Array("9223372036854775808".utf8), Array("-1".utf8), Array("\"\\u0000\"".utf8),
        Array("portolan-bundle/1\n".utf8),
    ]

    /// One to four mutations: bit flips, cuts, deletions, hostile inserts, duplicated runs, and
    /// changes aimed at the length field and the manifest's numbers.
    public static func mutate(_ bundle: [UInt8], with random: inout SeededRandom) -> [UInt8] {
        var bytes = bundle
        for _ in 0..<(1 + random.below(4)) {
            guard !bytes.isEmpty else { break }
            let at = random.below(bytes.count)
            switch random.below(7) {
            case 0: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(16)))
            case 2: bytes = Array(bytes.prefix(at))
            case 3: bytes.insert(contentsOf: random.pick(hostile) ?? [], at: at)
            case 4:
                // The manifest's length (bytes 18–21).
                if bytes.count > 21 { bytes[18 + random.below(4)] = UInt8(truncatingIfNeeded: random.next()) }
            case 5:
                let end = min(bytes.count, at + 1 + random.below(64))
                bytes.insert(contentsOf: bytes[at..<end], at: random.below(bytes.count))
            default:
                bytes[at] = random.pick(Array("{}[]\":,0123456789-.eE\\ /".utf8)) ?? 0
            }
        }
        return bytes
    }
}
