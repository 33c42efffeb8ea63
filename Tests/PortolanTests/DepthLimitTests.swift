import Portolan
import Testing

/// Paths are bounded (`NavigationGraph.maximumDepth`) so that no input can exhaust a stack.
@Suite struct DepthLimitTests {
    @Test func aGraphDeeperThanTheLimitIsRefused() {
        var spec = NodeSpec.screen("leaf")
        for level in 0..<(NavigationGraph.maximumDepth + 5) {
            spec = NodeSpec.screen("n\(level)", [spec])
        }
        #expect(throws: GraphError.self) { try NavigationGraph(root: spec) }
    }

    @Test func aChainAtTheLimitRoutesEndToEnd() throws {
        var spec = NodeSpec.screen("n\(NavigationGraph.maximumDepth - 1)")
        for level in stride(from: NavigationGraph.maximumDepth - 2, through: 0, by: -1) {
            spec = NodeSpec.screen("n\(level)", [spec])
        }
        var tree = RoutingTree(graph: try NavigationGraph(root: spec))
        let deepest = Destination.path((0..<NavigationGraph.maximumDepth).map { Entry("n\($0)") })
        #expect(try planAndApply(&tree, to: deepest).count == NavigationGraph.maximumDepth - 1)
        #expect(try planAndApply(&tree, to: path("n0")).count == NavigationGraph.maximumDepth - 1)
    }

    @Test func anywhereNodesCannotPileUpWithoutEnd() throws {
        var tree = try PortusTree.tree(anywhere: [.screen("alert"), .screen("sheet")])
        var failure: RouteFailure?
        for round in 0...NavigationGraph.maximumDepth {
            do {
                _ = try planAndApply(&tree, to: .anywhere(round.isMultiple(of: 2) ? "alert" : "sheet"))
            } catch let error as RouteFailure {
                failure = error
                break
            }
        }
        #expect(failure?.kind == .invalid)
        #expect(tree.activePath.count == NavigationGraph.maximumDepth)
    }
}
