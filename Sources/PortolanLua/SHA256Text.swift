import Crypto

/// SHA-256 (swift-crypto) as Portolan writes it everywhere: 64 lowercase hex digits. A bundle's
/// file digests, a snapshot's rules hash and the snapshot store's marker names all use it.
enum SHA256Text {
    /// The digest of `bytes`.
    static func of(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// A digest already computed (by an incremental `SHA256` hasher, say).
    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
