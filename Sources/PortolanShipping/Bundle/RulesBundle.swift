import Portolan
import PortolanLua

/// A rules bundle: one file that holds a signed manifest and the Lua files it lists.
///
/// The file, in order (docs/bundles.md, "The file"):
/// 1. the 18 bytes `portolan-bundle/1` and a line feed;
/// 2. the manifest's length, 4 bytes, big-endian;
/// 3. the manifest, its canonical JSON (`BundleManifest.canonicalBytes`);
/// 4. the Ed25519 signature of those bytes, 64 bytes;
/// 5. each file's bytes, in the manifest's order, each as long as the manifest says;
/// and nothing after. Every length is checked against `BundleLimits` and what remains before it
/// is used, so reading any bytes returns, with a bundle or a `BundleError`.
public struct RulesBundle: Sendable, Equatable {
    static let magic = Array("portolan-bundle/1\n".utf8)

    public let manifest: BundleManifest
    /// The manifest's bytes as they were signed.
    public let manifestBytes: [UInt8]
    public let signature: [UInt8]
    /// Each file's bytes, by path.
    public let files: [String: [UInt8]]

    /// Reads a bundle's bytes without judging its signature or its files' hashes (`verify` does).
    public static func read(_ bytes: [UInt8]) -> Result<RulesBundle, BundleError> {
        Result { () throws(BundleError) in try RulesBundle(bytes: bytes) }
    }

    /// Reads a bundle and verifies it with one of `keys`: the one way a host should take one.
    public static func verified(_ bytes: [UInt8], trusting keys: [BundlePublicKey]) -> Result<RulesBundle, BundleError> {
        read(bytes).flatMap { bundle in
            if let error = bundle.verify(trusting: keys) { return .failure(error) }
            return .success(bundle)
        }
    }

    public static func verified(_ bytes: [UInt8], publicKey: BundlePublicKey) -> Result<RulesBundle, BundleError> {
        verified(bytes, trusting: [publicKey])
    }

    /// The signature first (is this manifest the holder's of a key the app trusts: the key it
    /// names, or, when it names none, any of them?), then every file against its hash.
    public func verify(trusting keys: [BundlePublicKey]) -> BundleError? {
        var candidates = keys
        if let named = manifest.key {
            candidates = keys.filter { $0.id == named }
            if candidates.isEmpty { return .untrustedKey(named) }
        }
        guard candidates.contains(where: { $0.isValid(signature: signature, of: manifestBytes) }) else { return .badSignature }
        for entry in manifest.files where SHA256Text.of(files[entry.path] ?? []) != entry.sha256 {
            return .tamperedFile(entry.path)
        }
        return nil
    }

    /// Writes a bundle of `files` (path → bytes) under `manifest`, whose file list is made from
    /// them, signed with `key`, which it names. Refuses what a reader would refuse.
    public static func encode(
        _ manifest: BundleManifest, files: [String: [UInt8]], signingKey key: BundleSigningKey
    ) throws(BundleError) -> [UInt8] {
        let signed = BundleManifest(
            id: manifest.id, version: manifest.version, abi: manifest.abi, entry: manifest.entry, requires: manifest.requires,
            files: files.map { BundleFileEntry(path: $0.key, contents: $0.value) }, scenarios: manifest.scenarios,
            canary: manifest.canary, key: key.publicKey.id, expires: manifest.expires)
        let manifestBytes = signed.canonicalBytes
        var output = magic
        output.append(contentsOf: withUnsafeBytes(of: UInt32(truncatingIfNeeded: manifestBytes.count).bigEndian, Array.init))
        output.append(contentsOf: manifestBytes)
        output.append(contentsOf: try key.signature(of: manifestBytes))
        for entry in signed.files { output.append(contentsOf: files[entry.path] ?? []) }
        // What is written must read back: the same checks, one definition.
        _ = try RulesBundle(bytes: output)
        return output
    }

    private init(bytes: [UInt8]) throws(BundleError) {
        guard bytes.count <= BundleLimits.maximumBytes else {
            throw .tooLarge("\(bytes.count) bytes, more than \(BundleLimits.maximumBytes)")
        }
        var reader = ByteCursor(bytes)
        let head = reader.take(Self.magic.count)
        guard head.elementsEqual(Self.magic.prefix(head.count)) else { throw .notABundle("it does not start with 'portolan-bundle/1'") }
        guard head.count == Self.magic.count else { throw .truncated("it ends inside its first line") }
        guard let length = reader.bigEndianUInt32() else { throw .truncated("it ends before the manifest's length") }
        guard length <= BundleLimits.maximumManifestBytes else {
            throw .tooLarge("a manifest of \(length) bytes, more than \(BundleLimits.maximumManifestBytes)")
        }
        let manifestBytes = Array(reader.take(Int(length)))
        guard manifestBytes.count == Int(length) else { throw .truncated("it ends inside the manifest") }
        guard let json = SnapshotReader.json(from: manifestBytes) else { throw .invalidManifest("it is not JSON") }
        guard CanonicalJSON.bytes(of: json) == manifestBytes else { throw .invalidManifest("it is not in canonical form") }
        let manifest = try BundleManifest(json: json)
        let signature = Array(reader.take(BundlePublicKey.signatureBytes))
        guard signature.count == BundlePublicKey.signatureBytes else { throw .truncated("it ends inside the signature") }
        var files: [String: [UInt8]] = [:]
        for entry in manifest.files {
            let contents = Array(reader.take(entry.byteCount))
            guard contents.count == entry.byteCount else { throw .truncated("it ends inside \(entry.path)") }
            files[entry.path] = contents
        }
        guard reader.isAtEnd else { throw .notABundle("\(reader.remaining) bytes follow its last file") }
        self.manifest = manifest
        self.manifestBytes = manifestBytes
        self.signature = signature
        self.files = files
    }
}

/// Reads bytes front to back, never past the end: a take returns what there is.
private struct ByteCursor {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { remaining == 0 }

    mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = offset + min(max(0, count), remaining)
        defer { offset = end }
        return bytes[offset..<end]
    }

    mutating func bigEndianUInt32() -> UInt32? {
        let four = take(4)
        guard four.count == 4 else { return nil }
        return four.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
