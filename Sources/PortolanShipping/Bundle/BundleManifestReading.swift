import Portolan

/// Reading a manifest's JSON value, strictly: every field of its type and within `BundleLimits`,
/// no field unknown, every path safe to write beneath a directory, and every file named once.
extension BundleManifest {
    init(json: JSONValue) throws(BundleError) {
        let fields = try ManifestFields(json, "the manifest",
                                        known: ["format", "id", "version", "abi", "entry", "requires", "files", "scenarios", "canary",
                                                "key", "expires"])
        guard try fields.string("format") == Self.format else { throw .invalidManifest("its format is not \(Self.format)") }
        let id = try fields.string("id")
        guard Self.isName(id, extraCharacters: ".-_") else { throw .invalidManifest("its id is not a name of letters, digits, '.', '-', '_'") }
        let files = try fields.list("files", limit: BundleLimits.maximumFiles).map { (entry) throws(BundleError) in
            try BundleFileEntry(json: entry)
        }
        let paths = files.map(\.path)
        guard paths == paths.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }), Set(paths).count == paths.count else {
            throw .invalidManifest("its files are not sorted by path, each once")
        }
        let entry = try fields.string("entry")
        guard paths.contains(entry) else { throw .invalidManifest("its entry is not one of its files") }
        let scenarios = try fields.strings("scenarios")
        guard scenarios.allSatisfy(paths.contains) else { throw .invalidManifest("a scenario is not one of its files") }
        let key = try fields.has("key") ? fields.string("key") : nil
        if let key, !Self.isName(key, extraCharacters: "") { throw .invalidManifest("its key is not a key's id") }
        self.init(
            id: id, version: try fields.integer("version", in: 1...Int(Int32.max)), abi: try fields.integer("abi", in: 1...Int(Int32.max)),
            entry: entry, requires: try BundleRequirements(json: fields.value("requires")), files: files,
            scenarios: scenarios, canary: try CanarySettings(json: fields.value("canary")), key: key,
            expires: try fields.has("expires") ? fields.integer("expires", in: 1...BundleLimits.latestExpiry) : nil)
    }

    /// Whether `text` is 1…`maximumNameBytes` bytes of ASCII letters, digits and `extraCharacters`.
    static func isName(_ text: String, extraCharacters: String) -> Bool {
        !text.isEmpty && text.utf8.count <= BundleLimits.maximumNameBytes
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || extraCharacters.unicodeScalars.contains($0)) }
    }

    /// Whether `path` is relative, `/`-separated, its parts names that start with no `.`, and a `.lua` file.
    static func isSafePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return isName(path, extraCharacters: ".-_/") && path.hasSuffix(".lua") && parts.count <= 8
            && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") }
    }
}

extension BundleFileEntry {
    init(json: JSONValue) throws(BundleError) {
        let fields = try ManifestFields(json, "a file", known: ["path", "bytes", "sha256"])
        let path = try fields.string("path")
        guard BundleManifest.isSafePath(path) else {
            throw .invalidManifest("a file's path is not a relative path of names ending in .lua")
        }
        let digest = try fields.string("sha256")
        guard digest.utf8.count == 64, digest.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw .invalidManifest("\(path)'s sha256 is not 64 lowercase hex digits")
        }
        self.init(path: path, byteCount: try fields.integer("bytes", in: 0...BundleLimits.maximumFileBytes), sha256: digest)
    }
}

extension BundleRequirements {
    init(json: JSONValue) throws(BundleError) {
        let fields = try ManifestFields(json, "requires", known: ["nodes", "functions", "context"])
        self.init(nodes: try fields.strings("nodes"), functions: try fields.strings("functions"), contextKeys: try fields.strings("context"))
    }
}

extension CanarySettings {
    init(json: JSONValue) throws(BundleError) {
        let fields = try ManifestFields(json, "canary", known: ["routes", "max_failure_ratio"])
        let ratio: Double
        switch try fields.value("max_failure_ratio") {
        case .integer(let whole) where whole == 0 || whole == 1: ratio = Double(whole)
        case .number(let number) where (0...1).contains(number): ratio = number
        default: throw .invalidManifest("canary's max_failure_ratio is not a number from 0 to 1")
        }
        self.init(routes: try fields.integer("routes", in: 0...BundleLimits.maximumCanaryRoutes), maximumFailureRatio: ratio)
    }
}

/// The members of one object of the manifest, read by type, each error naming where it is.
private struct ManifestFields {
    let members: [String: JSONValue]
    let place: String

    init(_ json: JSONValue, _ place: String, known: Set<String>) throws(BundleError) {
        guard let members = json.objectValue else { throw .invalidManifest("\(place) is not an object") }
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidManifest("\(place) has an unknown field '\(unknown.prefix(40))'")
        }
        self.members = members
        self.place = place
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    func value(_ key: String) throws(BundleError) -> JSONValue {
        guard let value = members[key] else { throw .invalidManifest("\(place) has no '\(key)'") }
        return value
    }

    func string(_ key: String) throws(BundleError) -> String {
        guard let text = try value(key).stringValue, text.utf8.count <= BundleLimits.maximumNameBytes else {
            throw .invalidManifest("\(place)'s '\(key)' is not a string of at most \(BundleLimits.maximumNameBytes) bytes")
        }
        return text
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(BundleError) -> Int {
        guard let whole = try value(key).integerValue, let integer = Int(exactly: whole), range.contains(integer) else {
            throw .invalidManifest("\(place)'s '\(key)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return integer
    }

    func list(_ key: String, limit: Int) throws(BundleError) -> [JSONValue] {
        guard let list = try value(key).arrayValue, list.count <= limit else {
            throw .invalidManifest("\(place)'s '\(key)' is not a list of at most \(limit)")
        }
        return list
    }

    func strings(_ key: String) throws(BundleError) -> [String] {
        try list(key, limit: BundleLimits.maximumListEntries).map { (element) throws(BundleError) in
            guard let text = element.stringValue, BundleManifest.isName(text, extraCharacters: ".-_/:") else {
                throw .invalidManifest("\(place)'s '\(key)' holds something other than names")
            }
            return text
        }
    }
}

extension BundleManifest {
    /// A manifest made from a bundle's source: `json` as a directory's `bundle.json` holds it (`id`,
    /// `version`, `entry`, and optionally `abi`, `requires`, `scenarios`, `canary`, `expires`; the
    /// build names the key), and the files
    /// it is built of. What it leaves out takes its default; the result is checked as a reader would.
    public static func fromSource(_ json: JSONValue, files: [String: [UInt8]]) throws(BundleError) -> BundleManifest {
        guard var members = json.objectValue else { throw .invalidManifest("bundle.json is not an object") }
        let defaults = BundleManifest(id: "", version: 1, entry: "", files: [])
        members["format"] = members["format"] ?? .string(format)
        members["abi"] = members["abi"] ?? .integer(Int64(RulesABI.current))
        members["requires"] = members["requires"] ?? defaults.requires.json
        members["scenarios"] = members["scenarios"] ?? .array([])
        members["canary"] = members["canary"] ?? defaults.canary.json
        var requires = members["requires"]?.objectValue ?? [:]
        for key in ["nodes", "functions", "context"] where requires[key] == nil { requires[key] = .array([]) }
        members["requires"] = .object(requires)
        guard members["files"] == nil else { throw .invalidManifest("bundle.json lists no files: the build lists them") }
        guard members["key"] == nil else { throw .invalidManifest("bundle.json names no key: the build names the key that signs it") }
        let entries = files.map { BundleFileEntry(path: $0.key, contents: $0.value) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        members["files"] = .array(entries.map(\.json))
        return try BundleManifest(json: .object(members))
    }
}
