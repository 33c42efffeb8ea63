import Crypto

/// SHA-256 (swift-crypto) as Portolan writes it everywhere: 64 lowercase hex digits. A bundle's
/// file digests, a snapshot's rules hash and the snapshot store's marker names all use it.
package enum SHA256Text {
    /// The digest of `bytes`.
    package static func of(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// A digest already computed (by an incremental `SHA256` hasher, say).
    ///
    /// Spelled out digit by digit: joining an array of strings went through the standard library's
    /// unspecialized `joined()`, whose first call has the Swift runtime scan the binary's table of
    /// conformances (0.28 M instructions, 3% of the REPL's start-up, which hashes the empty rules).
    package static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(SHA256.Digest.byteCount * 2)
        digest.withUnsafeBytes { bytes in
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
