import Portolan
import Testing

@Suite struct NavigationGraphTests {
    @Test func duplicateIDsAreRefused() {
        #expect(throws: GraphError.duplicateID("a")) {
            try NavigationGraph(root: .screen("root", [.screen("a"), .screen("b", [.screen("a")])]))
        }
    }

    @Test func anAnywhereNodeMayNotReuseAnID() {
        #expect(throws: GraphError.duplicateID("a")) {
            try NavigationGraph(root: .screen("root", [.screen("a")]), anywhere: [.screen("a")])
        }
    }

    @Test func switchNeedsChildren() {
        #expect(throws: GraphError.switchWithoutChildren("tabs")) {
            try NavigationGraph(root: .switch("tabs", []))
        }
    }

    @Test func activeMustNameAChild() {
        #expect(throws: GraphError.activeNotAChild(switchNode: "tabs", active: "nope")) {
            try NavigationGraph(root: .switch("tabs", active: "nope", [.screen("a")]))
        }
    }

    @Test func activeOnAScreenIsRefused() {
        #expect(throws: GraphError.activeOnScreen("root")) {
            try NavigationGraph(root: NodeSpec("root", kind: .screen, active: "a", children: [.screen("a")]))
        }
    }

    @Test func emptyIDsAreRefused() {
        #expect(throws: GraphError.emptyID(parent: "root")) {
            try NavigationGraph(root: .screen("root", [.screen("")]))
        }
    }

    @Test func switchDefaultsToItsFirstChild() throws {
        let graph = try NavigationGraph(root: .switch("tabs", [.screen("a"), .screen("b")]))
        #expect(graph["tabs"]?.initialActive == "a")
        #expect(RoutingTree(graph: graph).activePath == ["tabs", "a"])
    }

    @Test func anywhereNodesStandOnlyOnScreens() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        #expect(graph.allows("alert", below: "node5"))
        #expect(!graph.allows("alert", below: "switchNode2"))
        #expect(!graph.allows("node8", below: "node6"))
    }

    @Test func errorsReadAsSentences() {
        #expect(GraphError.duplicateID("a").description == "the id 'a' is declared more than once")
    }
}
