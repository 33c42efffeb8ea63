import FuzzSupport
import Portolan
import PortolanLua
import TestSupport
import Testing

/// A bounded soak (`FuzzSupport/SoakRunner.swift`): the same code as `scripts/soak.sh`, over
/// 20,000 routes instead of 1,000,000. It asserts what must hold whatever the machine: the tree's
/// invariants after every route, and memory, not time.
@Suite struct SoakTests {
    static let repository = Repository.root

    @Test func twentyThousandRoutesKeepTheTreeSoundAndTheLuaHeapBounded() async throws {
        let soak = try await SoakRunner(apps: SoakedApp.standard(repository: Self.repository), seed: 0x50A4, sampleEvery: 5_000)
        do {
            try await soak.run(routes: 20_000)
        } catch {
            Issue.record("\(error)")
        }
        let counts = soak.counts
        #expect(counts.routes == 20_000)
        // Routes must fail every way the apps allow, or the soak tests little.
        for kind in [RouteFailure.Kind.unreachable, .blocked, .denied, .handlerFailed, .invalid] {
            #expect(counts.failures[kind, default: 0] > 20, "few routes failed as \(kind): \(counts.failures)")
        }
        #expect(counts.succeeded > 5_000 && counts.rollbackFailures > 0, "\(counts)")
        #expect(soak.witnessed.redirects > 100 && soak.witnessed.rollbacks > 1_000, "\(soak.witnessed)")
        // The Lua heap of each host, after a full collection, ends near where it started.
        let start = try #require(soak.samples.first), end = try #require(soak.samples.last)
        try #require(start.luaBytes.count == 3 && end.luaBytes.count == 3)
        for (index, name) in soak.appNames.enumerated() {
            #expect(end.luaBytes[index] < start.luaBytes[index] + 256 << 10, "\(name): \(start.luaBytes[index]) → \(end.luaBytes[index]) bytes")
        }
    }
}
