import Portolan
import PortolanLua
import TestSupport
import Testing

/// A snapshot written by rules at the same declared version as the rules in service, but by other
/// files: the rules changed without a version bump, and every restore says so (docs/snapshots.md,
/// "Rules changed without a version bump").
@Suite struct SnapshotRulesHashTests {
    static func app(extra: String = "") -> String {
        """
        portolan.app { id = "root", version = 3, children = {
          { id = "tabs", kind = "switch", keep = true, children = {
            { id = "a", children = { { id = "item" } } }, { id = "b" }, \(extra) } } } }
        """
    }

    /// A snapshot of `app.lua` in `directory` with the path in tab a.
    private func saved(in directory: TemporaryDirectory) async throws -> [UInt8] {
        try directory.write("app.lua", Self.app())
        let host = try await PortolanHost.quiet()
        try await host.loadApp(.file(directory.path("app.lua")))
        _ = try await host.run(#"assert(portolan.route { "root", "tabs", "a", "item" })"#, chunkName: "s.lua")
        return try await host.snapshotBytes()
    }

    private func host(loading source: String, in directory: TemporaryDirectory) async throws -> PortolanHost {
        try directory.write("changed.lua", source)
        let host = try await PortolanHost.quiet()
        try await host.loadApp(.file(directory.path("changed.lua")))
        return host
    }

    @Test func sameFilesSayNothing() async throws {
        let directory = try TemporaryDirectory("rules-hash")
        defer { directory.remove() }
        let saved = try await saved(in: directory)
        let outcome = try await host(loading: Self.app(), in: directory).restore(saved)
        #expect(outcome == .restored(guards: .passed))
        #expect(outcome.notes.isEmpty)
    }

    @Test func otherFilesAtTheSameVersionAreReported() async throws {
        let directory = try TemporaryDirectory("rules-hash")
        defer { directory.remove() }
        let saved = try await saved(in: directory)
        // A new tab, and a comment: the same version, other files.
        let host = try await host(loading: "-- edited\n" + Self.app(extra: #"{ id = "c" }"#), in: directory)
        let outcome = await host.restore(saved)
        #expect(outcome.name == "restored")
        #expect(outcome.notes.count == 1)
        guard case .rulesChangedWithoutVersionBump(let version, let savedHash, let runningHash)? = outcome.notes.first else {
            Issue.record("no note: \(outcome)")
            return
        }
        #expect(version == 3 && savedHash != runningHash && savedHash.hasPrefix("sha256:"))
        #expect(outcome.description.hasPrefix("restored; note: the rules changed without a version bump"))
        // Lua sees the same note; a document that is refused has none.
        let lua = try await host.run("""
            local doc = portolan.snapshot()
            local outcome = portolan.restore(doc)
            local mismatch = portolan.restore([==[\(String(decoding: saved, as: UTF8.self))]==])
            return #outcome.notes, #mismatch.notes, mismatch.notes[1]:sub(1, 44), #portolan.restore("{}").notes
            """, chunkName: "s.lua")
        #expect(lua == ["0", "1", #""the rules changed without a version bump: th""#, "0"])
    }

    @Test func aLowerVersionIsAMigrationNotANote() async throws {
        let directory = try TemporaryDirectory("rules-hash")
        defer { directory.remove() }
        let saved = try await saved(in: directory)
        let next = Self.app().replacingOccurrences(of: "version = 3", with: "version = 4")
        let outcome = try await host(loading: next, in: directory).restore(saved)
        #expect(outcome == .restored(guards: .passed))
    }
}
