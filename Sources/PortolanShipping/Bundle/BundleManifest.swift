import Portolan
import PortolanLua

/// What a rules bundle says of itself, and what its signature covers: who it is (`id`, `version`),
/// what it needs of the host (`abi`, `requires`), its files with their SHA-256, the scenarios it
/// brings, and how its canary is to be watched. Its bytes in a bundle are its canonical JSON
/// (`CanonicalJSON`), so one manifest has one signed form.
public struct BundleManifest: Sendable, Equatable {
    /// The `format` every manifest names.
    public static let format = "portolan-bundle/1"

    public var id: String
    /// Raised with each release of the bundle (whole, at least 1).
    public var version: Int
    /// The engine ABI the rules need (`RulesABI.current` when built).
    public var abi: Int
    /// The app file the host loads, one of `files`.
    public var entry: String
    public var requires: BundleRequirements
    /// Every file, sorted by path.
    public var files: [BundleFileEntry]
    /// The scenario files the gate runs, each one of `files`.
    public var scenarios: [String]
    public var canary: CanarySettings
    /// The id of the key that signed it (`BundlePublicKey.id`), so that an app trusting several
    /// keys (a rotation) checks it with that one. Set when the bundle is built; nil in a bundle
    /// built before keys were named, which any trusted key may verify.
    public var key: String?
    /// Until when it may be installed, in seconds since 1970 (UTC); nil: no limit. A host refuses
    /// it afterwards, and an app may require one (`BundleInstallOptions.requiresExpiry`).
    public var expires: Int?

    public init(
        id: String, version: Int, abi: Int = RulesABI.current, entry: String, requires: BundleRequirements = .init(),
        files: [BundleFileEntry], scenarios: [String] = [], canary: CanarySettings = .init(), key: String? = nil,
        expires: Int? = nil
    ) {
        self.id = id
        self.version = version
        self.abi = abi
        self.entry = entry
        self.requires = requires
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.scenarios = scenarios
        self.canary = canary
        self.key = key
        self.expires = expires
    }

    /// Its JSON value, as signed. `key` and `expires` appear only when set, so a manifest without
    /// them keeps the bytes it was signed with.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "format": .string(Self.format), "id": .string(id), "version": .integer(Int64(version)),
            "abi": .integer(Int64(abi)), "entry": .string(entry), "requires": requires.json,
            "files": .array(files.map(\.json)), "scenarios": .array(scenarios.map(JSONValue.string)),
            "canary": canary.json,
        ]
        if let key { members["key"] = .string(key) }
        if let expires { members["expires"] = .integer(Int64(expires)) }
        return .object(members)
    }

    /// Its canonical bytes: what the signature covers.
    public var canonicalBytes: [UInt8] { CanonicalJSON.bytes(of: json) }
}

/// One file of a bundle as the manifest lists it.
public struct BundleFileEntry: Sendable, Equatable {
    /// Relative, `/`-separated, of letters, digits, `_`, `-` and `.`, no part starting with `.`.
    public var path: String
    public var byteCount: Int
    /// 64 lowercase hex digits.
    public var sha256: String

    public init(path: String, contents: [UInt8]) {
        self.init(path: path, byteCount: contents.count, sha256: SHA256Text.of(contents))
    }

    init(path: String, byteCount: Int, sha256: String) {
        self.path = path
        self.byteCount = byteCount
        self.sha256 = sha256
    }

    var json: JSONValue {
        .object(["path": .string(path), "bytes": .integer(Int64(byteCount)), "sha256": .string(sha256)])
    }
}

/// What the rules use of the host: Swift nodes bound to ids, functions registered for Lua, and
/// the context keys the app provides. The gate refuses a bundle that needs one this host lacks.
public struct BundleRequirements: Sendable, Equatable {
    public var nodes: [String]
    public var functions: [String]
    public var contextKeys: [String]

    public init(nodes: [String] = [], functions: [String] = [], contextKeys: [String] = []) {
        self.nodes = nodes
        self.functions = functions
        self.contextKeys = contextKeys
    }

    var json: JSONValue {
        .object([
            "nodes": .array(nodes.map(JSONValue.string)), "functions": .array(functions.map(JSONValue.string)),
            "context": .array(contextKeys.map(JSONValue.string)),
        ])
    }
}

/// How the routes after a swap are to be watched: how many, and the highest share of them that
/// may fail before the bundle is reverted (`RulesCanary`, docs/bundles.md stage 8).
public struct CanarySettings: Sendable, Equatable {
    public var routes: Int
    public var maximumFailureRatio: Double

    public init(routes: Int = 20, maximumFailureRatio: Double = 0) {
        self.routes = routes
        self.maximumFailureRatio = maximumFailureRatio
    }

    var json: JSONValue {
        .object(["routes": .integer(Int64(routes)), "max_failure_ratio": .number(normalizing: maximumFailureRatio)])
    }
}

/// The engine ABI: the version of what rules may rely on (the `portolan` module's functions, the
/// node table's fields, the events' names). A bundle built for a newer one is refused.
public enum RulesABI {
    public static let current = 1
}
