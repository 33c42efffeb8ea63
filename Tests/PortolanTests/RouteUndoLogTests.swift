@testable import Portolan
import TestSupport
import Testing

/// A route's undo log (`TreeUndoStep`, `RouteUndoLog`): each step puts back exactly what its
/// instruction changed, kept stacks included, and a change from outside the route keeps the start.
@Suite struct RouteUndoLogTests {
    private let destinations = PortusTree.tour

    @Test func everyStepRevertsItsInstructionExactly() throws {
        var tree = try PortusTree.tree(anywhere: [.screen("alert")])
        var checked = 0
        // Every ordered pair, twice over, so that each route starts from trees with stacks kept.
        for _ in 0..<2 {
            for from in destinations {
                for to in destinations {
                    for destination in [from, to] {
                        for instruction in try Planner.plan(from: tree, to: destination) {
                            let before = tree
                            let step = tree.undoStep(for: instruction)
                            try tree.apply(instruction)
                            var reverted = tree
                            reverted.revert(step)
                            #expect(reverted == before, "reverting \(instruction)")
                            #expect(reverted.switches == before.switches && reverted.nodeIndices == before.nodeIndices)
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 300)
    }

    @Test func theStepsOfARouteLeadBackToItsStartNewestFirst() throws {
        var tree = try PortusTree.tree(anywhere: [.screen("alert")])
        for start in destinations {
            for destination in destinations {
                _ = try planAndApply(&tree, to: start)
                let before = tree
                var log = RouteUndoLog(capacity: 8)
                for instruction in try Planner.plan(from: tree, to: destination) {
                    let step = tree.undoStep(for: instruction)
                    try tree.apply(instruction)
                    log.record(step)
                }
                #expect(log.start(from: tree) == before)
            }
        }
    }

    /// A change from outside the route in its middle (a tab reset dropping the kept stacks), then
    /// a failure: the undo still ends on the tree as the route started, kept stacks included, as
    /// the restore-point copy did; reverting the steps alone would have lost them.
    @Test func aTabResetDuringAFailedRouteKeepsTheRouteStart() async throws {
        let tabs = NodeSpec.switch("tabs", active: "a", keepsStacks: true, [
            .screen("a", [.screen("b")]), .screen("z", [.screen("z1", [.screen("z2", [.screen("z3")])])]),
        ])
        let router = Router(graph: try NavigationGraph(root: tabs), configuration: .init(handlerTimeout: .seconds(600)))
        _ = await router.route(to: path("tabs", "a", "b"))
        _ = await router.route(to: path("tabs", "z", "z1"))
        let before = router.tree
        router.bind(NodeHandlers(enter: { _, _ in try router.resetTabs() }), to: "z2")
        router.bind(NodeHandlers(enter: { _, _ in throw HandlerError("z3 fails") }), to: "z3")
        let result = await router.route(to: path("tabs", "z", "z1", "z2", "z3"))
        #expect(result.failure?.kind == .handlerFailed)
        #expect(result.failure?.executed == [.enter("z2")])
        #expect(result.failure?.rolledBack == [.leave("z2")])
        #expect(router.tree == before)
        // a's stack is back: going there again is one switch, b showing.
        let back = await router.route(to: path("tabs", "a", "b"))
        #expect(back.success == [.switch("tabs", to: "a")])
    }
}
