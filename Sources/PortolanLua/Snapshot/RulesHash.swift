import Crypto
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
    static func of(files: [String]) -> String {
        var hasher = SHA256()
        for file in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            var count = UInt64(bytes.count).littleEndian
            withUnsafeBytes(of: &count) { hasher.update(bufferPointer: $0) }
            hasher.update(data: bytes)
        }
        return "sha256:" + SHA256Text.hex(hasher.finalize())
    }
}
