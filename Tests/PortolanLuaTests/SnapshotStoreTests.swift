import Foundation
import Portolan
import PortolanLua
import TestSupport
import Testing

/// The host's store: save on request, restore on start, a snapshot that failed twice refused.
@Suite struct SnapshotStoreTests {
    static let app = """
        broken = false
        portolan.app { id = "root", children = {
          { id = "a", enter = function() if broken then error("the screen cannot load") end end, children = { { id = "b" } } } } }
        """

    @Test func aSnapshotThatFailedTwiceIsQuarantined() async throws {
        let directory = try TemporaryDirectory("store")
        defer { directory.remove() }
        let store = SnapshotStore(directory: directory.path("state"))
        let first = try await PortolanHost.quiet(loading: Self.app)
        #expect(await store.restoreOnStart(into: first) == .nothingSaved)
        _ = try await first.run(#"assert(portolan.route { "root", "a", "b" })"#, chunkName: "s.lua")
        try await store.save(from: first)
        // A start that restores it.
        let second = try await PortolanHost.quiet(loading: Self.app)
        #expect(await store.restoreOnStart(into: second) == .restore(.restored(guards: .passed)))
        #expect(await second.router?.activePath.map(\.id) == ["root", "a", "b"])
        // Two starts whose restore fails (the handler now errors), then a refusal.
        for _ in 0..<2 {
            let failing = try await PortolanHost.quiet(loading: Self.app.replacingOccurrences(of: "broken = false", with: "broken = true"))
            let outcome = await store.restoreOnStart(into: failing)
            guard case .restore(.refused(let reason)) = outcome else {
                Issue.record("expected a refused restore, got \(outcome)")
                return
            }
            #expect(reason.contains("the screen cannot load"))
            #expect(await failing.router?.activePath.map(\.id) == ["root"])
        }
        let third = try await PortolanHost.quiet(loading: Self.app)
        guard case .quarantined(let why) = await store.restoreOnStart(into: third) else {
            Issue.record("a snapshot that failed twice must be quarantined")
            return
        }
        #expect(why.hasPrefix("the saved snapshot failed to restore 2 times"))
        #expect(await third.router?.activePath.map(\.id) == ["root"])
        // A new save starts the count afresh.
        try await store.save(from: third)
        #expect(await store.restoreOnStart(into: try await PortolanHost.quiet(loading: Self.app)) == .restore(.restored(guards: .passed)))
    }

    @Test func aCrashDuringTheRestoreCountsAsAFailure() async throws {
        let directory = try TemporaryDirectory("store")
        defer { directory.remove() }
        let store = SnapshotStore(directory: directory.path("state"))
        let host = try await PortolanHost.quiet(loading: Self.app)
        try await store.save(from: host)
        // Two starts that crashed during the restore: each left the marker behind, counting itself.
        let digestLine = { () throws -> String in
            try String(contentsOfFile: directory.path("state/restoring"), encoding: .utf8)
        }
        _ = await store.restoreOnStart(into: host)
        #expect((try? digestLine()) == nil, "a restore that succeeded clears its marker")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path("state/snapshot.json"))))
        let digest = SnapshotStore.digest(of: bytes)
        try directory.write("state/restoring", "\(digest) 2\n")
        guard case .quarantined = await store.restoreOnStart(into: host) else {
            Issue.record("two crashed restores must quarantine the snapshot")
            return
        }
    }
}
