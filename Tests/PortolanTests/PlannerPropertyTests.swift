@testable import Portolan
import TestSupport
import PropertyBased
import Testing

/// Property tests of the planner and the live tree on random graphs.
///
/// Each case is a random walk: a random graph (screens and switch nodes, up to 8 deep, some nodes
/// reachable from anywhere), then a random sequence of steps on one tree — routes to random
/// destinations (mostly valid paths walked in the graph, some with contexts, some invalid), host
/// reports (valid or not) and routes under `canLeave` vetoes. Every step is checked against an
/// oracle written from DESIGN.md ("The model", "The planner"), not against the planner's code.
///
/// The generated inputs are a seed and a few sizes; everything else is derived from the seed with
/// a small deterministic generator, so a failing case is reproduced by its printed input alone.
@Suite struct PlannerPropertyTests {
    /// Routes only, no vetoes and no host reports: every plan reaches its destination or fails typed,
    /// runs as planned, is idempotent and O(depth), and the tree stays valid.
    @Test func routesReachTheirDestinationOrFailTyped() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .routesOnly)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Routes interleaved with the host's own reports (didEnter/didLeave/didSwitch), valid or not.
    @Test func hostReportsKeepTheTreeValid() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .withHostReports)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Routes under random `canLeave` vetoes (refusals and throwing checks), plus host reports: a
    /// vetoed plan is blocked at the first leave the veto refuses, and asks nothing else.
    @Test func vetoesBlockAtARefusedLeave() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .withVetoes)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Long walks on deep graphs, where anywhere nodes stack up: the plan length stays within
    /// 2 × (live tree depth + destination length) + 1 and everything else still holds.
    @Test func plansStayLinearInDepth() async {
        await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 6...8), Gen.int(in: 60...120)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .everything)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// The generator itself: it makes graphs of both kinds of node, as deep as asked, with anywhere
    /// nodes, and walks reach deep paths — so the properties above are not vacuous.
    @Test func randomGraphsCoverWhatTheyShould() throws {
        var sawSwitch = false, sawAnywhere = false, deepest = 0, longestPath = 0
        for seed in UInt64(0)..<200 {
            let shape = try RandomGraph(seed: seed, maxDepth: 8)
            sawSwitch = sawSwitch || shape.ids.contains { shape.graph[$0]?.kind == .switch }
            sawAnywhere = sawAnywhere || !shape.graph.anywhereIDs.isEmpty
            deepest = max(deepest, shape.depth)
            var walk = RandomWalk(shape: shape, seed: seed, mix: .routesOnly)
            for _ in 0..<20 where walk.step() == nil {
                longestPath = max(longestPath, walk.tree.activePath.count)
            }
        }
        #expect(sawSwitch && sawAnywhere)
        #expect(deepest == 8)
        #expect(longestPath >= 8)
    }
}
