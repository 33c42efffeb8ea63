import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        self.key = key
    }

    public var text: String { Self.textPrefix + Data(key.rawRepresentation).base64EncodedString() }

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
