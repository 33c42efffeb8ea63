import Portolan
import TestSupport
import Testing

/// A reload's carry of the live state to new rules (`Router.carried`): the one carrier a restore
/// uses too (`PreparedRestore`), so a reload gets the declared migrations, the conservative rule and
/// the new limits in every kept stack, and reports each change (issue 32).
@Suite struct RouterCarryTests {
    /// The tree carried to `graph` (version 1 to `version`), the instructions a reload reports for
    /// the active path (what leaves, then what the new rules enter), and every change.
    static func carried(
        _ tree: RoutingTree, to graph: NavigationGraph, version: Int = 1, migrations: [Int: SnapshotMigration] = [:],
    ) -> (tree: RoutingTree, left: [String], entered: [String], changes: [SnapshotChange]) {
        let router = Router(tree: tree)
        let prepared = router.carried(to: graph, version: version, migrations: migrations, from: RulesIdentity(version: 1, hash: ""))
        let difference = CarryDifference(from: tree, to: prepared.tree, renamed: prepared.renames)
        return (prepared.tree, texts(difference.activeLeaving), texts(difference.arrivals), prepared.changes)
    }

    @Test func nodesThatStillExistAreKeptWithTheirContext() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: .path(["switchNode1", "node1", Entry("node5", context: ["id": 3]), "node8"]))
        let carry = Self.carried(tree, to: try PortusTree.graph())
        #expect(carry.tree == tree)
        #expect(carry.left == [])
        #expect(carry.changes == [])
    }

    @Test func removedNodesAreLeftBottomUp() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let smaller = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node6")]), .screen("node2"),
        ]))
        let carry = Self.carried(tree, to: smaller)
        #expect(carry.left == ["leave node8", "leave node5"])
        #expect(carry.tree.activePath == ["switchNode1", "node1"])
        #expect(carry.changes.contains(.dropped("node5", reason: "the rules have no such node (no migration covers it)")))
    }

    @Test func aVanishedActiveTabIsSwitchedAwayFromAndNewTabsAppear() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node2", "node7"))
        let reshaped = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node5")]), .screen("node9"),
        ]))
        let carry = Self.carried(tree, to: reshaped)
        #expect(carry.left == ["leave node7"])
        // Before, the new tab came without its handler: now the new rules run the switch.
        #expect(carry.entered == ["switch switchNode1 -> node1"])
        #expect(carry.tree.root.children.map(\.entry.id) == ["node1", "node9"])
        #expect(try Planner.plan(from: carry.tree, to: path("switchNode1", "node9")) == [.switch("switchNode1", to: "node9")])
    }

    @Test func aNodeThatChangedKindIsReplaced() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let changed = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.switch("node5", [.screen("x")])]),
        ]))
        let carry = Self.carried(tree, to: changed)
        #expect(carry.left == ["leave node5"])
        #expect(carry.tree.activePath == ["switchNode1", "node1"])
    }

    @Test func aNewRootStartsAfresh() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let carry = Self.carried(tree, to: try NavigationGraph(root: .screen("other")))
        #expect(carry.tree.activePath == ["other"])
    }

    /// Issue 32: a reload dropped a screen of another tab's kept stack without a word.
    @Test func aScreenGoneFromAKeptStackIsReported() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try tree.didSwitch("switchNode1", to: "node2")
        var root = PortusTree.root
        root.children[1].children[0].children.removeAll { $0.id == "node8" }
        let carry = Self.carried(tree, to: try NavigationGraph(root: root))
        #expect(carry.left == [], "the active path is untouched")
        #expect(carry.changes == [.dropped("node8", reason: "the rules have no such node (no migration covers it)")])
        var carried = carry.tree
        try carried.didSwitch("switchNode1", to: "node1")
        #expect(carried.activePath == ["switchNode1", "node1", "node5"], "the rest of the kept stack stays")
    }

    /// Issue 32: a reload kept a path deeper than the new rules' `max_depth`.
    @Test func aPathPastTheNewLimitsIsCutAndReported() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let limited = try NavigationGraph(root: PortusTree.root, limits: PathLimits(maxDepth: 3))
        let carry = Self.carried(tree, to: limited)
        #expect(carry.tree.activePath == ["switchNode1", "node1", "node5"])
        #expect(carry.left == ["leave node8"])
        #expect(carry.changes.count == 1 && carry.changes.first.map { if case .dropped("node8", _) = $0 { true } else { false } } == true,
                "\(carry.changes)")
    }

    /// A reload gets the declared migrations a restore applies: a renamed screen keeps its place,
    /// in a kept stack too, instead of being dropped.
    @Test func aDeclaredRenameKeepsTheScreenInItsKeptStack() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try tree.didSwitch("switchNode1", to: "node2")
        var root = PortusTree.root
        root.children[1].children[0].children[0] = .screen("article")
        let carry = Self.carried(
            tree, to: try NavigationGraph(root: root), version: 2,
            migrations: [2: SnapshotMigration(version: 2, renamed: ["node8": "article"])])
        #expect(carry.changes == [.renamed("node8", to: "article", version: 2)])
        var carried = carry.tree
        try carried.didSwitch("switchNode1", to: "node1")
        #expect(carried.activePath == ["switchNode1", "node1", "node5", "article"])
    }

    /// Issue 32: a `moved` migration moved a node on the active path only; one in a kept stack was
    /// dropped. Now it moves there too, leaving what is active as it was.
    @Test func aMoveCarriesAKeptStacksScreenToItsNewPlace() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try tree.didSwitch("switchNode1", to: "node2")
        let moved = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .switch("switchNode2", active: "node3", [.screen("node3", [.screen("node5", [.screen("node8")])]), .screen("node4")]),
            .screen("node1", [.screen("node6")]),
            .screen("node2", [.screen("node7")]),
        ]))
        let carry = Self.carried(
            tree, to: moved, version: 2,
            migrations: [2: SnapshotMigration(version: 2, moved: ["node5": ["switchNode1", "switchNode2", "node3"]])])
        #expect(carry.changes == [.moved("node5", under: ["switchNode1", "switchNode2", "node3"], version: 2)])
        #expect(carry.tree.activePath == ["switchNode1", "node2"], "what shows stays")
        var carried = carry.tree
        try carried.didSwitch("switchNode1", to: "switchNode2")
        #expect(carried.activePath == ["switchNode1", "switchNode2", "node3", "node5", "node8"])
        try carried.didSwitch("switchNode1", to: "node1")
        #expect(carried.activePath == ["switchNode1", "node1"], "gone from where it was")
    }

    /// Issue 32: what a move brings onto the active path is entered by the new rules, after it
    /// left by the old ones; before, it stood there without its `enter`.
    @Test func anActivePathsMoveLeavesAndEntersAgain() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let moved = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node6")]), .screen("node2", [.screen("node5", [.screen("node8")])]),
        ]))
        let carry = Self.carried(
            tree, to: moved, version: 2, migrations: [2: SnapshotMigration(version: 2, moved: ["node5": ["switchNode1", "node2"]])])
        #expect(carry.tree.activePath == ["switchNode1", "node2", "node5", "node8"], "\(carry.changes)")
        #expect(carry.left == ["leave node8", "leave node5"])
        #expect(carry.entered == ["switch switchNode1 -> node2", "enter node5", "enter node8"])
    }

    /// A kept stack's move never changes what shows: onto the active path it is dropped, said so.
    @Test func aKeptStacksMoveOntoTheActivePathIsDroppedAndReported() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try tree.didSwitch("switchNode1", to: "node2")
        let moved = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1"), .screen("node2", [.screen("node5", [.screen("node8")])]),
        ]))
        let carry = Self.carried(
            tree, to: moved, version: 2, migrations: [2: SnapshotMigration(version: 2, moved: ["node5": ["switchNode1", "node2"]])])
        #expect(carry.tree.activePath == ["switchNode1", "node2"])
        #expect(carry.changes.first == .dropped("node5", reason: "moved from a kept stack, but its new place is on the active path (version 2)"),
                "\(carry.changes)")
    }

    /// A reload lost the switches' histories; they are carried like the tree.
    @Test func theSwitchesHistoriesAreCarried() throws {
        let graph = try PortusTree.graph()
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node2"))
        let document = SnapshotDocument(
            rules: RulesIdentity(version: 1, hash: ""), tree: SavedNode(tree.root), switchHistory: ["switchNode1": [Entry("node1")]])
        let restored = try PreparedRestore(document, graph: graph, version: 1, migrations: [:])
        let carrier = Router(carrying: restored, configuration: .init())
        let carried = carrier.carried(to: graph, version: 1, migrations: [:], from: RulesIdentity(version: 1, hash: ""))
        #expect(carried.switchHistory == ["switchNode1": [Entry("node1")]])
    }

    /// Issue 32: the screens a rules change takes away from the active path leave through their
    /// handlers, bottom-up, by the one executor; `returnNow` brings them back through `enter`.
    @Test func theScreensThatGoLeaveThroughTheirHandlersAndComeBack() async throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let router = Router(tree: tree)
        let log = TransactionalRouteTests.Log()
        for id in ["node1", "node5", "node8"] { router.bind(log.handlers(for: NodeID(id)), to: NodeID(id)) }
        let smaller = try NavigationGraph(root: .switch("switchNode1", active: "node1", [
            .screen("node1", [.screen("node6")]), .screen("node2"),
        ]))
        let carried = router.carried(to: smaller, version: 1, migrations: [:], from: RulesIdentity(version: 1, hash: ""))
        let difference = CarryDifference(from: tree, to: carried.tree, renamed: carried.renames)
        let left = await router.thread.run { router.leaveNow(difference) }
        guard case .success(let departure) = left else {
            Issue.record("the departure failed: \(left)")
            return
        }
        #expect(texts(departure.left) == ["leave node8", "leave node5"])
        #expect(router.activePath == ["switchNode1", "node1"])
        #expect(await router.thread.run { router.returnNow(departure) } == nil)
        #expect(router.tree == tree)
        #expect(log.calls.value == ["leave node8", "leave node5", "enter node5", "enter node8"])
    }

    /// A `leave` that fails undoes the leaves before it, and says why.
    @Test func aLeaveThatFailsUndoesTheDeparture() async throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        let router = Router(tree: tree)
        let log = TransactionalRouteTests.Log()
        for id in ["node5", "node8"] { router.bind(log.handlers(for: NodeID(id)), to: NodeID(id)) }
        log.failing.withLock { $0 = ["leave node5"] }
        let smaller = try NavigationGraph(root: .switch("switchNode1", active: "node1", [.screen("node1"), .screen("node2")]))
        let carried = router.carried(to: smaller, version: 1, migrations: [:], from: RulesIdentity(version: 1, hash: ""))
        let difference = CarryDifference(from: tree, to: carried.tree, renamed: carried.renames)
        let left = await router.thread.run { router.leaveNow(difference) }
        guard case .failure(let failure) = left else {
            Issue.record("the departure succeeded")
            return
        }
        #expect(failure.message.contains("leave node5 failed"))
        #expect(router.tree == tree)
        #expect(log.calls.value == ["leave node8", "leave node5", "enter node8"])
    }
}
