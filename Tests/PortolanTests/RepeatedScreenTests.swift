@testable import Portolan
import TestSupport
import Testing

/// Screens that repeat and screens every tab shares (issue 20, §1): a node declared once, pushed
/// on top of the screens that list it (`NodeSpec.pushes`), any number of times, each copy with its
/// own context, and kept with the stack of the tab it was pushed in.
@Suite struct RepeatedScreenTests {
    private let p1 = ShopGraph.product(1), p2 = ShopGraph.product(2), p3 = ShopGraph.product(3)

    /// Today's error: a node stood at most once on a path, so product → product was refused.
    /// Without a push declaration it still is (apps that declare none are unchanged).
    @Test func productOverProductNeedsAPushDeclaration() throws {
        var plain = RoutingTree(graph: try ShopGraph.graph(pushes: false))
        #expect(throws: RouteFailure(.unreachable, "'product' is not a child of node 'product'")) {
            try planAndApply(&plain, to: .path(ShopGraph.path("home", p1, p2)))
        }
        var tree = try ShopGraph.tree()
        #expect(try planAndApply(&tree, to: .path(ShopGraph.path("home", p1, p2, p1))) == [.enter(p1), .enter(p2), .enter(p1)])
        #expect(tree.activePath == ShopGraph.path("home", p1, p2, p1))
        // Reviews push products too: product → reviews → product → reviews.
        let deep = ShopGraph.path("home", p1, "reviews", p2, "reviews")
        #expect(try planAndApply(&tree, to: .path(deep)) == [.leave(p1), .leave(p2), .enter("reviews"), .enter(p2), .enter("reviews")])
    }

    /// The same screen from two tabs: each push belongs to its tab's stack and comes back with it.
    @Test func oneScreenPushedFromTwoTabsIsKeptWithEachTab() throws {
        var tree = try ShopGraph.tree()
        _ = try planAndApply(&tree, to: .push(p1))
        _ = try planAndApply(&tree, to: .push(p2))
        #expect(tree.activePath == ShopGraph.path("home", p1, p2))
        #expect(try planAndApply(&tree, to: .path(ShopGraph.path("search"))) == [.switch("tabs", to: "search")])
        _ = try planAndApply(&tree, to: .push(p3))
        #expect(tree.activePath == ShopGraph.path("search", p3))
        // Back to home: its two products come back, search keeps its own.
        let home = try tree.destination(switching: "tabs", to: "home")
        #expect(try planAndApply(&tree, to: home) == [.switch("tabs", to: "home")])
        #expect(tree.activePath == ShopGraph.path("home", p1, p2))
        #expect(tree.livePath(to: "product", context: ["id": 3]) == ShopGraph.path("search", p3))
    }

    @Test func launchModesPlaceAPushAsDocumented() throws {
        func pushed(_ entry: Entry, _ mode: LaunchMode?, onto stack: [Entry]) throws -> [Entry] {
            var tree = try ShopGraph.tree()
            _ = try planAndApply(&tree, to: .path(ShopGraph.path("home") + stack))
            _ = try planAndApply(&tree, to: .push(entry, launch: mode))
            return Array(tree.activePath.dropFirst(3))
        }
        // push, the default: another copy, always.
        #expect(try pushed(p1, nil, onto: [p1]) == [p1, p1])
        #expect(try pushed(p1, .push, onto: [p1, p2]) == [p1, p2, p1])
        // single_top: the top takes the new context when it is the same node.
        #expect(try pushed(p1, .singleTop, onto: [p1]) == [p1])
        #expect(try pushed(p3, .singleTop, onto: [p1, p2]) == [p1, p3])
        #expect(try pushed(p3, .singleTop, onto: [p1, "reviews"]) == [p1, "reviews", p3])
        // clear_top: back to the very entry when it is on the stack.
        #expect(try pushed(p1, .clearTop, onto: [p1, p2, "reviews"]) == [p1])
        #expect(try pushed(p3, .clearTop, onto: [p1, p2]) == [p1, p2, p3])
        // replace: in place of the top screen, whatever it is; on a tab's root, a push.
        #expect(try pushed(p3, .replace, onto: [p1, "reviews"]) == [p1, p3])
        #expect(try pushed(p3, .replace, onto: []) == [p3])
    }

    @Test func theDeclaredLaunchModeIsTheDefaultAndAPushMayOverrideIt() throws {
        var tree = try ShopGraph.tree(launch: .singleTop)
        _ = try planAndApply(&tree, to: .push(p1))
        #expect(try planAndApply(&tree, to: .push(p2)) == [.leave(p1), .enter(p2)])
        #expect(try planAndApply(&tree, to: .push(p2)) == [])
        #expect(try planAndApply(&tree, to: .push(p3, launch: .push)) == [.enter(p3)])
        #expect(tree.activePath == ShopGraph.path("home", p2, p3))
    }

    /// "The second product of the stack", as a destination and as `livePath`.
    @Test func aLiveCopyIsNamedByItsOccurrence() throws {
        var tree = try ShopGraph.tree()
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home", p1, p2, p3)))
        #expect(tree.livePath(to: "product", occurrence: 2) == ShopGraph.path("home", p1, p2))
        #expect(tree.livePath(to: "product") == ShopGraph.path("home", p1, p2, p3))
        #expect(tree.livePath(to: "product", occurrence: 4) == nil)
        #expect(try planAndApply(&tree, to: .live("product", occurrence: 2)) == [.leave(p3)])
        #expect(throws: RouteFailure(.unreachable, "no copy #5 of 'product' is live")) {
            try planAndApply(&tree, to: .live("product", occurrence: 5))
        }
        // In a kept stack: search's second product, from the home tab.
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("search", p3, p1)))
        _ = try planAndApply(&tree, to: tree.destination(switching: "tabs", to: "home"))
        #expect(tree.livePath(to: "product", occurrence: 3) == nil)
        #expect(tree.livePath(to: "product", context: ["id": 1], occurrence: 1) == ShopGraph.path("home", p1))
        #expect(try planAndApply(&tree, to: .live("product", occurrence: 2)) == [], "the second is on top already")
        // Search's first product 3, kept while home shows: its tab comes back, and what is above it is left.
        #expect(tree.livePath(to: "product", context: ["id": 3], occurrence: 1) == ShopGraph.path("search", p3))
        let kept = try planAndApply(&tree, to: .live("product", context: ["id": 3], occurrence: 1))
        #expect(kept == [.switch("tabs", to: "search"), .leave(p1)])
    }

    /// Back leaves the top copy only; a failed undo-able route comes back to the same copies.
    @Test func backLeavesTheTopCopyOnly() async throws {
        let router = Router(graph: try ShopGraph.graph())
        _ = await router.route(to: .path(ShopGraph.path("home", p1, p1, p1)))
        #expect(await router.back().success == [.leave(p1)])
        #expect(router.activePath == ShopGraph.path("home", p1, p1))
    }

    @Test func limitsRefuseCleanlyAndNameTheLimit() throws {
        var tree = try ShopGraph.tree(limits: PathLimits(maxDepth: 6, maxCopies: 2))
        _ = try planAndApply(&tree, to: .push(p1))
        _ = try planAndApply(&tree, to: .push(p2))
        let copies = "the active path would hold 3 copies of 'product', more than the app's limit of 2 (max_copies)"
        #expect(throws: RouteFailure(.invalid, copies)) { try planAndApply(&tree, to: .push(p3)) }
        #expect(throws: TreeUpdateError.tooManyCopies("product", limit: 2)) { try tree.didEnter(p3) }
        _ = try planAndApply(&tree, to: .push("reviews"))
        let depth = "the active path would be 7 levels deep, more than the app's limit of 6 (max_depth)"
        #expect(throws: RouteFailure(.invalid, depth)) { try planAndApply(&tree, to: .path(tree.activePath + ["alert"])) }
        #expect(throws: RouteFailure(.invalid, "entering 'alert': " + depth)) { try planAndApply(&tree, to: .anywhere("alert")) }
        #expect(throws: TreeUpdateError.tooDeep(limit: 6)) { try tree.didEnter("alert") }
        #expect(tree.activePath == ShopGraph.path("home", p1, p2, "reviews"))
        #expect(throws: GraphError.limitOutOfRange("max_copies", value: 0, range: 1...1_000)) { try PathLimits(maxCopies: 0) }
        #expect(throws: GraphError.limitOutOfRange("max_depth", value: 1_001, range: 2...1_000)) { try PathLimits(maxDepth: 1_001) }
    }

    @Test func pushesAreCheckedWhenTheGraphIsDeclared() {
        #expect(throws: GraphError.unknownPush("a", pushed: "nowhere")) {
            try NavigationGraph(root: .switch("root", [NodeSpec("a", pushes: ["nowhere"])]))
        }
        #expect(throws: GraphError.pushOnSwitch("root")) {
            try NavigationGraph(root: NodeSpec("root", kind: .switch, children: [.screen("a")], pushes: ["a"]))
        }
        #expect(throws: GraphError.pushOfManaged("b", pushed: "a")) {
            try NavigationGraph(root: .switch("root", [.screen("a"), NodeSpec("b", pushes: ["a"])]))
        }
        #expect(throws: GraphError.pushOfManaged("a", pushed: "root")) {
            try NavigationGraph(root: .screen("root", [NodeSpec("a", pushes: ["root"])]))
        }
        #expect(GraphError.unknownPush("a", pushed: "nowhere").description == "'a' pushes 'nowhere', which is not declared")
    }

    @Test func drawingsShowPushesAndNumberRepeatedCopies() throws {
        let graph = try ShopGraph.graph()
        let text = GraphRenderer.render(graph, as: .text)
        #expect(!text.contains("home (pushes"), "a declared child is drawn as a child only")
        #expect(text.contains("search (pushes: product)"))
        #expect(text.contains("product (pushes: product)"))
        #expect(GraphRenderer.render(graph, as: .dot).contains(#""product" -> "product" [constraint=false, label="push", fontsize=10, style="dotted", class="edge push"]"#))
        #expect(GraphRenderer.render(graph, as: .mermaid).contains("-. push .->"))
        #expect(GraphRenderer.render(graph, as: .json).contains(#""push": true"#))
        #expect(GraphRenderer.render(graph, as: .svg).contains("class=\"edge push"))
        var tree = RoutingTree(graph: graph)
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home", p1, p2)))
        let live = GraphRenderer.render(graph, as: .dot, live: tree)
        #expect(live.contains(##""product" -> "product" [constraint=false, label="push", fontsize=10, style="dotted", color="#d9480f""##))
        let lines = GraphRenderer.activeTree(tree).split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("product {id=1} *") })
        #expect(lines.contains { $0.hasSuffix("product {id=2} #2 *") })
    }

    @Test func destinationsPrintCanonically() {
        #expect(Destination.push(p1).description == "push product {id=1}")
        #expect(Destination.push(p1, launch: .clearTop).description == "push product {id=1} (clear_top)")
        #expect(Destination.live("product", occurrence: 2).description == "live product #2")
    }
}
