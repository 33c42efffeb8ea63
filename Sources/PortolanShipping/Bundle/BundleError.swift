/// Why some bytes are not a rules bundle this host may take, before any of its Lua runs. Every
/// case is a sentence for a person (`reason`); none carries a key or a file's contents.
public enum BundleError: Error, Equatable, Sendable {
    /// The bytes do not start as a bundle does (docs/bundles.md, "The file").
    case notABundle(String)
    /// The bytes end before the bundle does.
    case truncated(String)
    /// A part is larger, or more numerous, than `BundleLimits` allows.
    case tooLarge(String)
    /// The manifest is not JSON, not canonical, or not of the manifest's shape.
    case invalidManifest(String)
    /// The signature is not the given key's over the manifest.
    case badSignature
    /// The manifest names a key (`BundleManifest.key`) that is none of the keys this app trusts.
    case untrustedKey(String)
    /// A file's bytes do not have the SHA-256 the signed manifest gives for it.
    case tamperedFile(String)
    /// The bundle needs a newer engine ABI than this host has.
    case abiTooNew(required: Int, supported: Int)
    /// The bundle requires what this host does not provide.
    case missingRequirement(kind: String, name: String)
    /// A key's text is not a key of the kind expected (the text itself is never repeated).
    case invalidKey(String)

    public var reason: String {
        switch self {
        case .notABundle(let detail): "not a rules bundle: \(detail)"
        case .truncated(let detail): "truncated: \(detail)"
        case .tooLarge(let detail): "too large: \(detail)"
        case .invalidManifest(let detail): "invalid manifest: \(detail)"
        case .badSignature: "bad signature: the manifest is not signed by this public key"
        case .untrustedKey(let id): "untrusted key: the manifest is signed by key \(id), which this app does not trust"
        case .tamperedFile(let path): "tampered file: \(path) does not match its SHA-256 in the manifest"
        case .abiTooNew(let required, let supported):
            "ABI too new: the bundle needs engine ABI \(required), this host has \(supported)"
        case .missingRequirement(let kind, let name): "missing \(kind): \(name)"
        case .invalidKey(let detail): "invalid key: \(detail)"
        }
    }
}
