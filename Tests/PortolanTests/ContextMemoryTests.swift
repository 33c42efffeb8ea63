@testable import Portolan
import TestSupport
import Testing

/// Context history (issue 35, §2): React Navigation 8's `pushParams`. An update that remembers
/// gives the top screen a new context and keeps the old one; back gives it back, newest first,
/// before it leaves the screen. The cases are React Navigation's own (`BaseRouter` and
/// `StackRouter` tests, Tests/PeerCases/StackStrategies.md §10).
@Suite struct ContextMemoryTests {
    private static func bar(_ fruit: String) -> Entry { Entry("bar", context: ["fruit": .string(fruit)]) }
    private let orange = bar("orange"), apple = bar("apple"), banana = bar("banana")

    /// `root` shows `baz`, which holds `bar`, which holds `qux`; `tabs` keeps two stacks, and
    /// its tab `one` pushes `bar`.
    private static func graph() throws -> NavigationGraph {
        try NavigationGraph(root: .screen("root", [
            .screen("baz", [.screen("bar", [.screen("qux")])]),
            NodeSpec("tabs", kind: .switch, children: [
                NodeSpec("one", pushes: ["bar"]), .screen("two"),
            ], keepsStacks: true),
        ]))
    }

    private func router(at path: [Entry]) async throws -> Router {
        let router = Router(graph: try Self.graph(), configuration: .init(handlerTimeout: .seconds(600)))
        _ = try #require(await router.route(to: .path(path)).success)
        return router
    }

    /// `BaseRouter` "pushes new params with existing history": the new context is taken as it is
    /// (no merge), and the old one is remembered after those remembered before.
    @Test func anUpdateThatRemembersKeepsTheOldContext() async throws {
        let router = try await router(at: ["root", "baz", orange])
        #expect(await router.route(to: .update(apple, memory: .remember)).success == [.update(orange, to: apple)])
        #expect(await router.route(to: .update(banana, memory: .remember)).success == [.update(apple, to: banana)])
        let top = try #require(router.tree.activePath.last)
        #expect(top == banana)
        #expect(top.earlierContexts == [orange.context, apple.context])
        // A plain update keeps what the screen remembers; the same context changes nothing.
        #expect(await router.route(to: .update(banana, memory: .remember)).success == [])
        #expect(router.tree.leaf.earlierContexts.count == 2)
    }

    /// `StackRouter` "handles goBack with route.history on a single route" and "handles pop action
    /// with route history": back restores the newest remembered context, then the one before,
    /// then leaves the screen.
    @Test func backRestoresTheRememberedContextsBeforeLeaving() async throws {
        let router = try await router(at: ["root", "baz", orange])
        _ = await router.route(to: .update(apple, memory: .remember))
        _ = await router.route(to: .update(banana, memory: .remember))
        #expect(await router.back().success == [.update(banana, to: apple)])
        #expect(router.tree.leaf.earlierContexts == [orange.context])
        #expect(await router.back().success == [.update(apple, to: orange)])
        #expect(router.tree.leaf.earlierContexts.isEmpty)
        #expect(await router.back().success == [.leave(orange)])
        #expect(router.activePath == ["root", "baz"])
        // The history says what back did: the restoring update is a route of its own.
        #expect(router.history.suffix(3).map { $0.requested.description } == [
            "update bar {fruit=apple} (restoring)", "update bar {fruit=orange} (restoring)", "root > baz",
        ])
    }

    /// Restoring needs something remembered; a merge that remembers keeps the merged context.
    @Test func restoringWithNothingRememberedIsUnreachable() async throws {
        let router = try await router(at: ["root", "baz", orange])
        let failed = await router.route(to: .update(apple, memory: .restore))
        #expect(failed.failure?.kind == .unreachable)
        #expect(failed.failure?.message == "'bar {fruit=orange}' remembers no earlier context to restore")
        let colour = Entry("bar", context: ["colour": .string("red")])
        _ = await router.route(to: .update(colour, merging: true, memory: .remember))
        #expect(router.tree.leaf == Entry("bar", context: ["fruit": .string("orange"), "colour": .string("red")]))
        #expect(router.tree.leaf.earlierContexts == [orange.context])
    }

    /// A route that fails after remembering undoes the memory with the context: back then leaves.
    @Test func aFailedRouteForgetsWhatItRemembered() async throws {
        let router = try await router(at: ["root", "baz", orange])
        router.bind(NodeHandlers(update: { _, _ in throw HandlerTimeout("no") }), to: "bar")
        #expect(await router.route(to: .update(apple, memory: .remember)).failure != nil)
        #expect(router.tree.leaf == orange)
        #expect(router.tree.leaf.earlierContexts.isEmpty)
        #expect(await router.back().success == [.leave(orange)])
    }

    /// What a screen remembers goes with it: kept in a kept tab stack while another tab shows,
    /// forgotten when the screen leaves and an equal one is entered again.
    @Test func theMemoryStaysWithItsScreen() async throws {
        let router = try await router(at: ["root", "tabs", "one", orange])
        _ = await router.route(to: .update(apple, memory: .remember))
        _ = await router.route(to: .path(["root", "tabs", "two"]))
        _ = await router.route(to: .path(["root", "tabs", "one", apple]))
        #expect(router.tree.leaf.earlierContexts == [orange.context])
        #expect(await router.back().success == [.update(apple, to: orange)])
        _ = await router.route(to: .update(apple, memory: .remember))
        _ = await router.route(to: .path(["root", "tabs", "one"]))
        _ = await router.route(to: .path(["root", "tabs", "one", apple]))
        #expect(router.tree.leaf.earlierContexts.isEmpty)
    }

    /// A screen that stays through a stack edit keeps what it remembers, moved or updated by key.
    @Test func aStackEditKeepsTheMemoryOfTheScreensThatStay() async throws {
        var tree = RoutingTree(graph: try NavigationGraph(root: .screen("root", [
            NodeSpec("a", pushes: ["a", "b"], key: ["n"]), NodeSpec("b", pushes: ["a", "b"]),
        ])))
        let (a1, a2, b) = (Entry("a", context: ["n": .integer(1)]), Entry("a", context: ["n": .integer(2)]), Entry("b"))
        _ = try planAndApply(&tree, to: .path(["root", b, a1]))
        _ = try planAndApply(&tree, to: .update(a2, memory: .remember))
        _ = try planAndApply(&tree, to: .reset(["root", a2, b]))
        #expect(tree.activePath == ["root", a2, b])
        #expect(tree.activePath[1].earlierContexts == [a1.context], "moved")
        let a2Again = Entry("a", context: ["n": .integer(2), "x": .boolean(true)])
        _ = try planAndApply(&tree, to: .reset(["root", a2Again, b]))
        #expect(tree.activePath[1].earlierContexts == [a1.context], "updated by its key")
    }

    /// At most `Entry.earlierContextLimit` contexts are remembered, the oldest forgotten first.
    @Test func theMemoryIsBounded() throws {
        var tree = RoutingTree(graph: try Self.graph())
        _ = try planAndApply(&tree, to: .path(["root", "baz", Self.bar("0")]))
        for step in 1...(Entry.earlierContextLimit + 5) {
            _ = try planAndApply(&tree, to: .update(Self.bar("\(step)"), memory: .remember))
        }
        #expect(tree.leaf.earlierContexts.count == Entry.earlierContextLimit)
        #expect(tree.leaf.earlierContexts.first == Self.bar("5").context)
        // Equal with or without a memory, and hashed alike: the memory is not the screen's identity.
        #expect(tree.leaf == Self.bar("\(Entry.earlierContextLimit + 5)"))
        #expect(Set([tree.leaf, Self.bar("\(Entry.earlierContextLimit + 5)")]).count == 1)
    }

    /// A snapshot saves the memory (`earlier_contexts`), and a restore brings it back for back.
    @Test func aSnapshotCarriesTheMemory() async throws {
        let router = try await router(at: ["root", "baz", orange])
        _ = await router.route(to: .update(apple, memory: .remember))
        let rules = RulesIdentity(version: 1, hash: "")
        let document = router.snapshot(rules: rules)
        let saved = try SnapshotDocument(json: document.json)
        #expect(CanonicalJSON.text(of: document.json).contains(#""earlier_contexts":[{"fruit":"orange"}]"#))
        let prepared = try PreparedRestore(saved, graph: try Self.graph(), version: 1, migrations: [:])
        let fresh = Router(carrying: prepared, configuration: .init(handlerTimeout: .seconds(600)))
        #expect(fresh.tree.leaf.earlierContexts == [orange.context])
        #expect(await fresh.back().success == [.update(apple, to: orange)])
        // Carried to new rules as a reload carries the tree: the memory goes along.
        let carried = router.carried(to: try Self.graph(), version: 2, migrations: [:], from: rules)
        #expect(carried.tree.leaf.earlierContexts == [orange.context])
    }

    @Test func aRememberingUpdatePrintsAndIsSavedCanonically() throws {
        #expect(Destination.update(apple, memory: .remember).description == "update bar {fruit=apple} (remembering)")
        #expect(Destination.update(apple, merging: true, memory: .restore).description == "merge bar {fruit=apple} (restoring)")
        for destination in [Destination.update(apple, memory: .remember), .update(apple, merging: true, memory: .restore)] {
            #expect(try SnapshotFields.destination(SnapshotFields.destination(destination), path: "d") == destination)
        }
        #expect(throws: SnapshotError.field("d.memory", #""keep", "remember" or "restore""#)) {
            try SnapshotFields.destination(.object(["update": SnapshotFields.entry(apple), "memory": .string("forget")]), path: "d")
        }
    }
}
