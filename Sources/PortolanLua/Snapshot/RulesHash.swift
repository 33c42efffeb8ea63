import Crypto
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The hash in a snapshot's rules identity: SHA-256 (swift-crypto) over the app's files (the app
/// file, the files it loaded, the modules it required, in that order), each as its byte count
/// and its bytes, so that two sets of files never hash alike by being cut differently. A file that
/// cannot be read counts as empty. Written `sha256:` and 64 lowercase hex digits.
enum RulesHash {
    /// The last few sets of files hashed, byte for byte, with their hashes, the newest first: every
    /// scenario of a `portolan test` run declares the same app in a fresh host, and hashing it
    /// anew was 7% of a trivial scenario's instructions. Files that differ in any byte are hashed again.
    /// Kept as byte arrays, not `Data`: a `Data`'s storage reference sits in the spare bits of its
    /// enum, where LeakSanitizer sees no pointer, so the memo's files were reported as leaked.
    private static let recent = Mutex<[(contents: [[UInt8]], hash: String)]>([])
    private static let recentLimit = 4

    /// The hash of an app slot with no app yet: worked out once, not by every new host.
    static let noFiles = of(files: [])

    static func of(files: [String]) -> String {
        let contents = files.map { (try? Data(contentsOf: URL(fileURLWithPath: $0))).map { [UInt8]($0) } ?? [] }
        let known = recent.withLock { $0 }   // compared outside the lock
        if let match = known.first(where: { $0.contents == contents }) { return match.hash }
        var hasher = SHA256()
        for bytes in contents {
            var count = UInt64(bytes.count).littleEndian
            withUnsafeBytes(of: &count) { hasher.update(bufferPointer: $0) }
            bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        let hash = "sha256:" + SHA256Text.hex(hasher.finalize())
        recent.withLock { recent in
            recent.insert((contents, hash), at: 0)
            if recent.count > recentLimit { recent.removeLast() }
        }
        return hash
    }
}
