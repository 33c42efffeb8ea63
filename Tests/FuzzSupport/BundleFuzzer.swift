import Foundation
import PortolanLua
import TestSupport
import PortolanShipping

/// Mutated rules bundles fed to the bundle reader and verifier (`RulesBundle.verified`): the
/// property is that it returns for any bytes, and that a bundle it accepts is the one signed.
/// `BundleReaderTests` runs a short share; `Benchmarks/Sources/BundleFuzz` the long run.
public final class BundleFuzzer {
    public let seed: UInt64
    /// The signed bundle every input mutates, and its key: both made from the seed, so that a
    /// failing input reproduces.
    public let original: [UInt8]
    public let publicKey: BundlePublicKey
    public private(set) var refused = 0
    public private(set) var accepted = 0

    public init(seed: UInt64) throws {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        let raw = (0..<4).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
        var fixture = BundleFixture()
        fixture.key = try BundleSigningKey(text: BundleSigningKey.textPrefix + Data(raw).base64EncodedString())
        original = try fixture.bytes()
        publicKey = fixture.publicKey
    }

    /// Feeds the inputs at `indices`; the first one that verifies though it is not the original
    /// throws.
    public func run(_ indices: Range<Int>) throws(FuzzFailure) {
        for index in indices {
            var random = SeededRandom.forInput(index, seed: seed)
            let mutated = Self.mutate(original, with: &random)
            switch RulesBundle.verified(mutated, publicKey: publicKey) {
            case .success where mutated != original:
                throw FuzzFailure(fuzzer: "BundleFuzz", seed: seed, index: index, problem: "a changed bundle verified",
                                  input: mutated.map { String($0, radix: 16) }.joined(separator: " "))
            case .success: accepted += 1
            case .failure: refused += 1
            }
        }
    }

    private static let hostile: [[UInt8]] = [
        [0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xFF], Array("{}".utf8), Array("[[[[[[[[".utf8),
        Array("\"../x.lua\"".utf8), Array("9223372036854775808".utf8), Array("-1".utf8), Array("\"\\u0000\"".utf8),
        Array("portolan-bundle/1\n".utf8),
    ]

    /// One to four mutations: bit flips, cuts, deletions, hostile inserts, duplicated runs, and
    /// changes aimed at the length field and the manifest's numbers.
    public static func mutate(_ bundle: [UInt8], with random: inout SeededRandom) -> [UInt8] {
        ByteMutation.mutate(bundle, hostile: hostile, punctuation: Array("{}[]\":,0123456789-.eE\\ /".utf8), with: &random) {
            bytes, _, random in
            // The manifest's length (bytes 18–21).
            if bytes.count > 21 { bytes[18 + random.below(4)] = UInt8(truncatingIfNeeded: random.next()) }
        }
    }
}
