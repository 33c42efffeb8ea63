import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PortolanLua

// All the cryptography of rules bundles, in one file, and all of it swift-crypto's: Ed25519
// (`Curve25519.Signing`) for the manifest's signature, SHA-256 for the files. None is written here.

/// The private key that signs bundles. Its text form is what `portolan bundle keygen` writes to a
/// file; it never describes itself with its bytes, so that it cannot reach a log or an error.
public struct BundleSigningKey: Sendable, CustomStringConvertible {
    /// How a key's text form starts.
    public static let textPrefix = "portolan-bundle-signing-key-ed25519:"
    private let key: Curve25519.Signing.PrivateKey

    /// A new random key.
    public init() {
        key = Curve25519.Signing.PrivateKey()
    }

    /// Reads a key from its text form (surrounding whitespace ignored).
    public init(text: String) throws(BundleError) {
        guard let raw = keyBytes(text, prefix: Self.textPrefix),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
            throw .invalidKey("not a bundle signing key (expected the file `portolan bundle keygen` writes)")
        }
        self.key = key
    }

    /// The text form, for the key's file only.
    public var text: String { Self.textPrefix + Data(key.rawRepresentation).base64EncodedString() }

    public var publicKey: BundlePublicKey { BundlePublicKey(key: key.publicKey) }

    public var description: String { "BundleSigningKey(hidden)" }

    func signature(of bytes: [UInt8]) throws(BundleError) -> [UInt8] {
        guard let signature = try? key.signature(for: bytes) else { throw .invalidKey("the key cannot sign") }
        return Array(signature)
    }
}

/// The public key a host checks bundles with: `ed25519:` and the key's 32 bytes in base64.
public struct BundlePublicKey: Sendable, Equatable, CustomStringConvertible {
    static let textPrefix = "ed25519:"
    /// The length of a signature in a bundle file.
    public static let signatureBytes = 64
    private let key: Curve25519.Signing.PublicKey

    init(key: Curve25519.Signing.PublicKey) {
        self.key = key
    }

    /// Reads a key from its text form (surrounding whitespace ignored).
    public init(text: String) throws(BundleError) {
        guard let raw = keyBytes(text, prefix: Self.textPrefix),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
            throw .invalidKey("not a bundle public key (expected `ed25519:` and 32 bytes in base64)")
        }
        if Self.isDegenerate([UInt8](raw)) {
            throw .invalidKey("a degenerate public key (a point of small order, or not in canonical form), which would verify bundles no one signed")
        }
        self.key = key
    }

    /// The encodings of the points of small order: the identity, the point of order 2, the two of
    /// order 4 and the four of order 8. Under such a key, the signature whose R is the identity
    /// and whose S is 0 verifies any message (swift-crypto, as RFC 8032, does not refuse them), so a
    /// key given as one of these would let anyone sign a bundle. The identity and the point of
    /// order 2 also appear with the sign bit set, which names the same point (x = 0) non-canonically.
    private static let smallOrderEncodings: [[UInt8]] = [
        [0x01] + Array(repeating: 0, count: 31),
        [0x01] + Array(repeating: 0, count: 30) + [0x80],
        [0xEC] + Array(repeating: 0xFF, count: 30) + [0x7F],
        [0xEC] + Array(repeating: 0xFF, count: 31),
        Array(repeating: 0, count: 32),
        Array(repeating: 0, count: 31) + [0x80],
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0x7A,
        ],
        [
            0xC7, 0x17, 0x6A, 0x70, 0x3D, 0x4D, 0xD8, 0x4F, 0xBA, 0x3C, 0x0B, 0x76, 0x0D, 0x10, 0x67, 0x0F,
            0x2A, 0x20, 0x53, 0xFA, 0x2C, 0x39, 0xCC, 0xC6, 0x4E, 0xC7, 0xFD, 0x77, 0x92, 0xAC, 0x03, 0xFA,
        ],
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x05,
        ],
        [
            0x26, 0xE8, 0x95, 0x8F, 0xC2, 0xB2, 0x27, 0xB0, 0x45, 0xC3, 0xF4, 0x89, 0xF2, 0xEF, 0x98, 0xF0,
            0xD5, 0xDF, 0xAC, 0x05, 0xD3, 0xC6, 0x33, 0x39, 0xB1, 0x38, 0x02, 0x88, 0x6D, 0x53, 0xFC, 0x85,
        ],
    ]

    /// Whether `raw` is no key to trust: a point of small order, or an encoding whose y is not
    /// below the field's prime 2^255 - 19 (a second spelling of some point, small order ones among
    /// them). Byte comparisons only, as libsodium screens keys: no curve arithmetic is written here.
    static func isDegenerate(_ raw: [UInt8]) -> Bool {
        guard raw.count == 32 else { return true }
        // y is the low 255 bits, little-endian; y >= 2^255 - 19 means bytes 1...30 all 0xFF, the
        // top byte 0x7F without the sign bit, and the lowest at least 0xED.
        let yIsNotCanonical = raw[31] & 0x7F == 0x7F && raw[1...30].allSatisfy { $0 == 0xFF } && raw[0] >= 0xED
        return yIsNotCanonical || smallOrderEncodings.contains(raw)
    }

    public var text: String { Self.textPrefix + Data(key.rawRepresentation).base64EncodedString() }

    /// Its short name, which a manifest gives to say which key signed it (`BundleManifest.key`):
    /// the first 8 bytes of the SHA-256 of its 32 bytes, in hex.
    public var id: String { String(SHA256Text.of([UInt8](key.rawRepresentation)).prefix(16)) }

    public var description: String { text }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key.rawRepresentation == rhs.key.rawRepresentation }

    func isValid(signature: [UInt8], of bytes: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: bytes)
    }
}

/// The 32 bytes of a key's text form, or nil.
private func keyBytes(_ text: String, prefix: String) -> Data? {
    let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    guard trimmed.utf8.count < 200, trimmed.hasPrefix(prefix),
          let raw = Data(base64Encoded: String(trimmed.dropFirst(prefix.count))), raw.count == 32 else { return nil }
    return raw
}
