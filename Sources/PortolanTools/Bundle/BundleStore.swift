#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PortolanLua

/// The directory where a host keeps its rules bundles (docs/bundles.md, "The store"):
///
/// - `known-good.bundle`: the last bundle whose canary passed, installed again when the app starts
///   (`host.installKnownGood`); with none, the app keeps the rules embedded in it;
/// - `installed`: a line `id version` per bundle id, the highest version swapped in: an older or
///   equal version offered again is a replay, and refused;
/// - `quarantine`: a line `id version` per bundle rejected or reverted, never installed again;
/// - `rules/ID@VERSION/`: the files of the bundles swapped in, which the host loads its rules from.
///
/// The quarantine is by id *and* version: the fix of a bad release is a new version of the same
/// id, which must stay installable. Every file is written whole, then renamed, so a process that
/// dies leaves the old file or the new one; two hosts given one directory see each other's writes.
public struct BundleStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }

    /// A bundle's identity: its id and version.
    public struct Identity: Sendable, Hashable, CustomStringConvertible {
        public let id: String
        public let version: Int

        public init(id: String, version: Int) {
            self.id = id
            self.version = version
        }

        public var description: String { "\(id) \(version)" }
    }

    /// The bytes of the last known good bundle, if any.
    public var knownGood: [UInt8]? {
        (try? Data(contentsOf: file("known-good.bundle"))).map { [UInt8]($0) }
    }

    /// The bundles quarantined, in the order they were.
    public var quarantined: [Identity] { identities(in: "quarantine") }

    public func isQuarantined(_ identity: Identity) -> Bool { quarantined.contains(identity) }

    /// The highest version of `id` swapped in, if any.
    public func installedVersion(of id: String) -> Int? {
        identities(in: "installed").filter { $0.id == id }.map(\.version).max()
    }

    /// Where the files of `identity` are unpacked to be the rules in service.
    public func rulesDirectory(for identity: Identity) -> String {
        directory + "/rules/" + identity.id + "@" + String(identity.version)
    }

    func quarantine(_ identity: Identity) throws {
        guard !isQuarantined(identity) else { return }
        try write(identities(in: "quarantine") + [identity], to: "quarantine")
    }

    func recordInstalled(_ identity: Identity) throws {
        let others = identities(in: "installed").filter { $0.id != identity.id }
        let version = max(identity.version, installedVersion(of: identity.id) ?? identity.version)
        try write(others + [Identity(id: identity.id, version: version)], to: "installed")
    }

    func keepKnownGood(_ bytes: [UInt8]) throws {
        try prepare()
        try Data(bytes).write(to: file("known-good.bundle"), options: .atomic)
    }

    func prepare() throws {
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
    }

    private func file(_ name: String) -> URL { URL(fileURLWithPath: directory).appendingPathComponent(name) }

    private func identities(in name: String) -> [Identity] {
        guard let data = try? Data(contentsOf: file(name)) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let version = Int(fields[1]) else { return nil }
            return Identity(id: String(fields[0]), version: version)
        }
    }

    private func write(_ identities: [Identity], to name: String) throws {
        try prepare()
        let text = identities.map { "\($0.id) \($0.version)\n" }.joined()
        try Data(text.utf8).write(to: file(name), options: .atomic)
    }
}
