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
/// - `floor`: the highest version whose canary passed, of any id (one slot of rules): a version
///   not above it is a replay, and refused;
/// - `watching.bundle` and `watch`: the bundle a canary watches, with `id version starts` (how
///   many starts of the app resumed the watch), until its verdict: a process that dies meanwhile
///   resumes it or goes back to the known good when it starts again;
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

    /// The highest version whose canary passed, of any id, if any: no version at or below it
    /// installs. (A store written before the floor kept a version per id in `installed`: the
    /// highest of them is its floor.)
    public var floor: Int? {
        if let data = try? Data(contentsOf: file("floor")) {
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        }
        return identities(in: "installed").map(\.version).max()
    }

    /// A canary's watch that outlived its process: the bundle it watched, and how many starts of
    /// the app resumed it already.
    public struct Watch: Sendable, Equatable {
        public let identity: Identity
        public let starts: Int
        public let bytes: [UInt8]
    }

    /// The watch in progress, or left by a process that died before the verdict; nil when none.
    public var watch: Watch? {
        guard let record = watchRecord, let bytes = try? Data(contentsOf: file("watching.bundle")) else { return nil }
        return Watch(identity: record.identity, starts: record.count, bytes: [UInt8](bytes))
    }

    /// Which bundle a canary watches, from its record alone: what the replay check and the end of
    /// a watch ask, without reading the watched bundle's bytes.
    var watchedIdentity: Identity? { watchRecord?.identity }

    private var watchRecord: (identity: Identity, count: Int)? { identities(in: "watch", withCount: true).first }

    /// Where the files of `identity` are unpacked to be the rules in service.
    public func rulesDirectory(for identity: Identity) -> String {
        directory + "/rules/" + identity.id + "@" + String(identity.version)
    }

    func quarantine(_ identity: Identity) throws {
        guard !isQuarantined(identity) else { return }
        try write(identities(in: "quarantine") + [identity], to: "quarantine")
    }

    /// The canary of `identity`, whose bytes are `bytes`, passed: it is the known good, and the
    /// floor rises to its version. The known good is written first: a process that dies between
    /// the two leaves a known good the floor does not yet cover, never a floor above it.
    func canaryPassed(_ identity: Identity, bytes: [UInt8]) throws {
        try prepare()
        try Data(bytes).write(to: file("known-good.bundle"), options: .atomic)
        if identity.version > floor ?? Int.min {
            try Data("\(identity.version)\n".utf8).write(to: file("floor"), options: .atomic)
        }
        try endWatch(of: identity)
    }

    /// A canary starts to watch `identity`, or (`starts` above 0) watches it again after a restart.
    func recordWatch(of identity: Identity, bytes: [UInt8], starts: Int = 0) throws {
        try prepare()
        try Data(bytes).write(to: file("watching.bundle"), options: .atomic)
        try Data("\(identity.id) \(identity.version) \(starts)\n".utf8).write(to: file("watch"), options: .atomic)
    }

    /// The watch of `identity` ended (a verdict, or other rules in service): nothing to resume.
    /// Another bundle's watch, recorded since, stays.
    func endWatch(of identity: Identity) throws {
        guard watchedIdentity == identity else { return }
        try FileManager.default.removeItem(atPath: file("watch").path)
        try? FileManager.default.removeItem(atPath: file("watching.bundle").path)
    }

    func prepare() throws {
        try FileManager.default.createDirectory(atPath: directory + "/rules", withIntermediateDirectories: true)
    }

    private func file(_ name: String) -> URL { URL(fileURLWithPath: directory).appendingPathComponent(name) }

    private func identities(in name: String) -> [Identity] {
        identities(in: name, withCount: false).map(\.identity)
    }

    /// The lines `id version` of the file `name`, or `id version count` when `withCount`.
    private func identities(in name: String, withCount: Bool) -> [(identity: Identity, count: Int)] {
        guard let data = try? Data(contentsOf: file(name)) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == (withCount ? 3 : 2), let version = Int(fields[1]) else { return nil }
            // A count is never negative: a record that says so is damaged, and read as none.
            let count = withCount ? Int(fields[2]).flatMap { $0 >= 0 ? $0 : nil } : 0
            return count.map { (Identity(id: String(fields[0]), version: version), $0) }
        }
    }

    private func write(_ identities: [Identity], to name: String) throws {
        try prepare()
        let text = identities.map { "\($0.id) \($0.version)\n" }.joined()
        try Data(text.utf8).write(to: file(name), options: .atomic)
    }
}
