import Portolan
import PropertyBased
import TestSupport
import Testing

/// Property tests of the planner and the router over apps with repeated screens
/// (`RepeatedScreenWalk`): random pushes under every launch mode, live copies, tab switches, routes
/// back down the path and anywhere nodes, some of whose handlers fail midway.
@Suite struct RepeatedScreenPropertyTests {
    /// What `plan` answers is what `route` then does: the same instructions, or the same failure;
    /// a push arrives where its launch mode says; a route that fails midway is undone and the tree
    /// is exactly what it was; no path grows past the app's limits.
    @Test func planEqualsRouteAndTheUndoRestoresTheTree() async throws {
        await propertyCheck(count: 150, input: Gen.uint64(), Gen.int(in: 1...40)) { seed, steps in
            do {
                var walk = try RepeatedScreenWalk(seed: seed)
                for index in 0..<steps {
                    if let failure = await walk.step() {
                        Issue.record("seed \(seed), step \(index): \(failure)")
                        return
                    }
                }
            } catch {
                Issue.record("seed \(seed): the app was refused: \(error)")
            }
        }
    }

    /// The walk is not vacuous: it reaches repeated copies, undone routes and both limits.
    @Test func theWalkReachesRepeatsUndosAndLimits() async throws {
        var sawRepeat = false, sawUndo = false, sawLimit = false
        for seed in UInt64(0)..<40 {
            var walk = try RepeatedScreenWalk(seed: seed)
            for _ in 0..<40 {
                _ = await walk.step()
                let failure = walk.router.history.last?.failure
                sawUndo = sawUndo || failure?.rolledBack.isEmpty == false
                sawLimit = sawLimit || failure?.message.contains("(max_") == true
                let path = walk.router.tree.activePath
                sawRepeat = sawRepeat || Set(path.map(\.id)).count < path.count
            }
        }
        #expect(sawRepeat && sawUndo && sawLimit)
    }
}
