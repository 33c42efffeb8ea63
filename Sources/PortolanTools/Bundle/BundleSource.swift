#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Lua
import Portolan
import PortolanLua
import PortolanShipping

/// A directory a bundle is built from (`portolan bundle build DIR`): its `bundle.json` (the
/// manifest's own fields) and every `.lua` file beneath it, hidden ones aside, collected and read
/// the one confined way (`ConfinedFolder`). Anything the walk refuses (a link, whatever it leads
/// to, a FIFO, a hard link) fails the build by name: a pull request that adds
/// `rules/k.lua -> ../signing.key` cannot get the key signed into a bundle.
public struct BundleSource {
    public let manifest: BundleManifest
    public let files: [String: [UInt8]]

    /// The name of the manifest's source in the directory.
    public static let manifestFile = "bundle.json"

    public init(directory: String) throws(BundleError) {
        let folder: ConfinedFolder
        do {
            folder = try ConfinedFolder(directory)
        } catch {
            throw .invalidManifest("cannot read \(directory): \(error.reason)")
        }
        if let first = folder.refused.first {
            let more = folder.refused.count > 1 ? " (and \(folder.refused.count - 1) more)" : ""
            throw .invalidManifest("\(first.path) is refused: \(first.reason)\(more)")
        }
        let manifestBytes: [UInt8]
        do {
            manifestBytes = try folder.bytes(of: Self.manifestFile)
        } catch {
            throw .invalidManifest("cannot read \(Self.manifestFile) in \(directory): \(error.reason)")
        }
        guard manifestBytes.count <= BundleLimits.maximumManifestBytes else {
            throw .invalidManifest("\(Self.manifestFile) has more than \(BundleLimits.maximumManifestBytes) bytes")
        }
        guard let json = SnapshotReader.json(from: manifestBytes) else { throw .invalidManifest("\(Self.manifestFile) is not JSON") }
        var files: [String: [UInt8]] = [:]
        for path in folder.files {
            guard files.count < BundleLimits.maximumFiles else { throw .tooLarge("more than \(BundleLimits.maximumFiles) files") }
            let bytes: [UInt8]
            do {
                bytes = try folder.bytes(of: path)
            } catch {
                throw .invalidManifest("\(path) is refused: \(error.reason)")
            }
            guard bytes.count <= BundleLimits.maximumFileBytes else { throw .tooLarge("\(path) has more than \(BundleLimits.maximumFileBytes) bytes") }
            files[path] = bytes
        }
        self.manifest = try BundleManifest.fromSource(json, files: files)
        self.files = files
    }

    /// Builds the bundle, signed with `key`; `expires` (seconds since 1970) replaces what
    /// bundle.json says of it, when given.
    public func bundle(signedWith key: BundleSigningKey, expires: Int? = nil) throws(BundleError) -> [UInt8] {
        var manifest = manifest
        if let expires {
            guard (1...BundleLimits.latestExpiry).contains(expires) else { throw .invalidManifest("its expiry is out of range") }
            manifest.expires = expires
        }
        return try RulesBundle.encode(manifest, files: files, signingKey: key)
    }
}
