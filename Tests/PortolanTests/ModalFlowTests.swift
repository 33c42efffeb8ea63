import Portolan
import TestSupport
import Testing

/// Modal flows: a destination whose first id is a node reachable from anywhere is a path inside
/// that node's subtree, wherever the user is.
@Suite struct ModalFlowTests {
    static func tree() throws -> RoutingTree {
        RoutingTree(graph: try NavigationGraph(
            root: .switch("root", [.screen("home", [.screen("article")]), .screen("search")]),
            anywhere: [.screen("checkout", [.screen("address", [.screen("payment")])])]))
    }

    private func route(_ tree: inout RoutingTree, _ ids: NodeID...) throws -> [String] {
        texts(try planAndApply(&tree, to: tree.absolute(.path(ids.map { Entry($0) }))))
    }

    @Test func aModalFlowStartsOnTopOfWhateverIsShowing() throws {
        var tree = try Self.tree()
        _ = try route(&tree, "root", "home", "article")
        #expect(try route(&tree, "checkout", "address") == ["enter checkout", "enter address"])
        #expect(tree.activePath.map(\.id) == ["root", "home", "article", "checkout", "address"])
    }

    @Test func aModalFlowContinuesInsideTheModalWhereItShows() throws {
        var tree = try Self.tree()
        _ = try route(&tree, "checkout", "address")
        #expect(try route(&tree, "checkout", "address", "payment") == ["enter payment"])
        #expect(try route(&tree, "checkout") == ["leave payment", "leave address"])
        #expect(tree.activePath.map(\.id) == ["root", "home", "checkout"])
    }

    @Test func anAbsoluteDestinationIsLeftAlone() throws {
        let tree = try Self.tree()
        #expect(tree.absolute(.ids("root", "search")) == .ids("root", "search"))
        #expect(tree.absolute(.anywhere(Entry("checkout"))) == .anywhere(Entry("checkout")))
    }
}
