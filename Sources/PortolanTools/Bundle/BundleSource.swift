#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Lua
import Portolan
import PortolanLua

/// A directory a bundle is built from (`portolan bundle build DIR`): its `bundle.json` (the
/// manifest's own fields) and every `.lua` file beneath it, hidden ones aside (`LuaFileTree`).
public struct BundleSource {
    public let manifest: BundleManifest
    public let files: [String: [UInt8]]

    /// The name of the manifest's source in the directory.
    public static let manifestFile = "bundle.json"

    public init(directory: String) throws(BundleError) {
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard let manifestBytes = try? LuaState.chunkBytes(contentsOfFile: root + "/" + Self.manifestFile),
              manifestBytes.count <= BundleLimits.maximumManifestBytes else {
            throw .invalidManifest("cannot read \(Self.manifestFile) in \(directory)")
        }
        guard let json = SnapshotReader.json(from: manifestBytes) else { throw .invalidManifest("\(Self.manifestFile) is not JSON") }
        var files: [String: [UInt8]] = [:]
        for path in LuaFileTree.files(beneath: root) {
            guard files.count < BundleLimits.maximumFiles else { throw .tooLarge("more than \(BundleLimits.maximumFiles) files") }
            guard let bytes = try? LuaState.chunkBytes(contentsOfFile: root + "/" + path) else {
                throw .invalidManifest("cannot read \(path)")
            }
            guard bytes.count <= BundleLimits.maximumFileBytes else { throw .tooLarge("\(path) has more than \(BundleLimits.maximumFileBytes) bytes") }
            files[path] = bytes
        }
        self.manifest = try BundleManifest.fromSource(json, files: files)
        self.files = files
    }

    /// Builds the bundle, signed with `key`.
    public func bundle(signedWith key: BundleSigningKey) throws(BundleError) -> [UInt8] {
        try RulesBundle.encode(manifest, files: files, signingKey: key)
    }
}
