@testable import Portolan
import TestSupport
import Testing

/// The stack strategies the peers define, with their own test cases written against the shop
/// (issue 35, §2; Tests/PeerCases/StackStrategies.md has each peer's source). A peer's stack
/// `[A, B*]` is the home tab's stack here: products and reviews pushed on `home`.
@Suite struct StackStrategyTests {
    private let p1 = ShopGraph.product(1), p2 = ShopGraph.product(2), p3 = ShopGraph.product(3)
    private let reviews = Entry("reviews")

    /// The home tab's stack after pushing `entry` onto `stack`, and the instructions it took.
    private func pushed(
        _ entry: Entry, _ mode: LaunchMode?, popUpTo: PopUpTo? = nil, onto stack: [Entry]
    ) throws -> (stack: [Entry], ran: [Instruction]) {
        var tree = try ShopGraph.tree()
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home") + stack))
        let ran = try planAndApply(&tree, to: .push(entry, launch: mode, popUpTo: popUpTo))
        return (Array(tree.activePath.dropFirst(3)), ran)
    }

    /// Decompose's `RouterPushNewTest`: pushed when absent, nothing at all when on top; equality,
    /// not the node, decides; a copy lower down does not stop it.
    @Test func pushNewDoesNothingWhenTheEqualEntryIsOnTop() throws {
        #expect(try pushed(p3, .pushNew, onto: [p1, p2]).stack == [p1, p2, p3])
        #expect(try pushed(p2, .pushNew, onto: [p1, p2]) == ([p1, p2], []))
        #expect(try pushed(p1, .pushNew, onto: [p2]).stack == [p2, p1])
        #expect(try pushed(p2, .pushNew, onto: [p2, p1]).stack == [p2, p1, p2])
        #expect(try pushed(p1, .pushNew, onto: []).stack == [p1])
    }

    /// React Navigation 7's `handles popTo action` and Expo's `dismissTo`: back to the nearest
    /// entry of the node, which takes the new context; none: the top is replaced.
    @Test func popToGoesBackToTheNearestCopyElseReplacesTheTop() throws {
        // [baz, bar*] popTo('baz', {answer: 42}) → [baz{answer: 42}*]
        #expect(try pushed(p3, .popTo, onto: [p1, reviews]) == ([p3], [.leave(reviews), .leave(p1), .enter(p3)]))
        // The same context: nothing is entered again.
        #expect(try pushed(p1, .popTo, onto: [p1, reviews]) == ([p1], [.leave(reviews)]))
        // The nearest copy wins, not the lowest.
        #expect(try pushed(p3, .popTo, onto: [p1, reviews, p2, reviews]).stack == [p1, reviews, p3])
        // [baz, bar*] popTo('qux') → [baz, qux*]: no copy, so the top is replaced.
        #expect(try pushed(reviews, .popTo, onto: [p1, p2]).stack == [p1, reviews])
        // On the tab's root there is no top screen to replace: a push.
        #expect(try pushed(p1, .popTo, onto: []).stack == [p1])
    }

    /// React Navigation's `goes back to matching screen for navigate if pop: true`: as `pop_to`,
    /// but a push when no copy is on the stack.
    @Test func popToOrPushPushesWhenNoCopyIsOnTheStack() throws {
        #expect(try pushed(reviews, .popToOrPush, onto: [p1]).stack == [p1, reviews])
        #expect(try pushed(p1, .popToOrPush, onto: [p1, reviews]).stack == [p1])
        #expect(try pushed(p2, .popToOrPush, onto: [p1, reviews, p3, reviews]) == (
            [p1, reviews, p2], [.leave(reviews), .leave(p3), .enter(p2)]))
    }

    /// Android's `singleTask`: at most one entry of the node, so back to the lowest, clearing
    /// everything above it (copies other modes pushed included); absent: a push.
    @Test func singleTaskClearsDownToTheOneEntryOfItsNode() throws {
        #expect(try pushed(p1, .singleTask, onto: [p1, reviews, p2, reviews]).stack == [p1])
        #expect(try pushed(p2, .singleTask, onto: [p1, reviews]) == ([p2], [.leave(reviews), .leave(p1), .enter(p2)]))
        #expect(try pushed(reviews, .singleTask, onto: [p1]).stack == [p1, reviews])
    }

    /// Jetpack's `popUpTo`: back to the most recent entry of the node (and it too when
    /// inclusive), then the push as its launch mode says, in one route.
    @Test func popUpToGoesBackThenPushesInOneRoute() throws {
        // The circular case: A, B and A again gives A, not A, B, A. An equal entry at its place
        // is kept: Portolan's entries are their id and context, so nothing re-enters it.
        #expect(try pushed(p1, nil, popUpTo: PopUpTo("product", inclusive: true), onto: [p1, reviews]) == ([p1], [.leave(reviews)]))
        // The most recent entry of the node, not the lowest.
        let recent = try pushed(p1, nil, popUpTo: PopUpTo("product", inclusive: true), onto: [p1, reviews, p2, reviews])
        #expect(recent.stack == [p1, reviews, p1])
        let toFirst = try pushed(p1, nil, popUpTo: PopUpTo("home"), onto: [p1, reviews, p2, reviews])
        #expect(toFirst == ([p1], [.leave(reviews), .leave(p2), .leave(reviews)]))
        #expect(try pushed(p3, nil, popUpTo: PopUpTo("product"), onto: [p1, reviews, p2, reviews]).stack == [p1, reviews, p2, p3])
        // Up to the tab's root, inclusive or not: the root stays.
        #expect(try pushed(p3, nil, popUpTo: PopUpTo("home", inclusive: true), onto: [p1, p2]).stack == [p3])
        // No entry of the node on the stack: nothing is left, and the push goes on.
        #expect(try pushed(p3, nil, popUpTo: PopUpTo("cart"), onto: [p1]).stack == [p1, p3])
        // An undeclared node is a mistake, not a node that is absent from the stack.
        #expect(throws: RouteFailure(.invalid, "pop_up_to names 'hom', which is not declared")) {
            try pushed(p3, nil, popUpTo: PopUpTo("hom"), onto: [p1])
        }
        // The launch mode applies to what is left: single_top after going back.
        #expect(try pushed(p3, .singleTop, popUpTo: PopUpTo("reviews"), onto: [p1, reviews, p2]).stack == [p1, reviews, p3])
    }

    @Test func pushesWithOptionsPrintCanonically() {
        #expect(Destination.push(p1, popUpTo: PopUpTo("home", inclusive: true)).description
            == "push product {id=1} (pop_up_to home inclusive)")
        #expect(Destination.push(p1, launch: .popTo, popUpTo: PopUpTo("home")).description
            == "push product {id=1} (pop_to, pop_up_to home)")
    }

    // MARK: The pop family

    private func router(on stack: [Entry]) async throws -> Router {
        let router = Router(graph: try ShopGraph.graph())
        _ = await router.route(to: .path(ShopGraph.path("home") + stack))
        return router
    }

    /// Decompose's `RouterPopTest`, React Navigation's `handles pop action`: `pop(2)` leaves two
    /// screens in one route, `pop(4)` on three leaves them all, the tab's root stays.
    @Test func backLeavesSeveralScreensInOneRoute() async throws {
        let router = try await router(on: [p1, p2, p3])
        #expect(await router.back(.screens(2)).success == [.leave(p3), .leave(p2)])
        #expect(router.activePath == ShopGraph.path("home", p1))
        #expect(router.history.count == 2, "one route, one record")
        #expect(await router.back(.screens(4)).success == [.leave(p1)])
        #expect(await router.back(.screens(1)).failure?.kind == .unreachable, "nothing is left to leave")
        #expect(await router.back(.screens(0)).failure?.kind == .invalid)
    }

    /// Decompose's `RouterPopToTest`: keep the first n screens; keeping as many as there are
    /// changes nothing.
    @Test func backKeepsTheFirstScreens() async throws {
        let router = try await router(on: [p1, p2, p3])
        #expect(await router.back(.keeping(3)).success == [])
        #expect(await router.back(.keeping(1)).success == [.leave(p3), .leave(p2)])
        #expect(await router.back(.keeping(0)).success == [.leave(p1)])
        #expect(router.activePath == ShopGraph.path("home"))
        #expect(await router.back(.keeping(-1)).failure?.kind == .invalid)
    }

    /// Decompose's `RouterPopWhileTest`: leave from the top while the predicate holds; it stops at
    /// the first screen it does not hold for.
    @Test func backLeavesWhileAPredicateHolds() async throws {
        let router = try await router(on: [p1, reviews, p2, p3])
        #expect(await router.back(.leavingWhile { $0.id == "product" }).success == [.leave(p3), .leave(p2)])
        #expect(await router.back(.leavingWhile { $0.id == "home" }).success == [], "the top is no home: nothing is left")
        #expect(await router.back(.leavingWhile { _ in true }).success == [.leave(reviews), .leave(p1)])
        #expect(router.tree.backScreens.isEmpty)
    }

    /// React Navigation's first screen of a stack: back never leaves a floor, however far it is
    /// asked to go; from the floor, the tab bar's back behaviour takes over; a route still leaves it.
    @Test func backNeverLeavesAFloor() async throws {
        var list = NodeSpec.screen("list", [.screen("detail")])
        list.isFloor = true
        let tabs = NodeSpec("root", kind: .switch, children: [.screen("home"), .screen("other", [list])], back: .first)
        let router = Router(graph: try NavigationGraph(root: tabs))
        _ = await router.route(to: .ids("root", "other", "list", "detail"))
        #expect(router.tree.backScreens == ["detail"])
        #expect(await router.back(.screens(5)).success == [.leave("detail")])
        #expect(await router.back(.keeping(0)).success == [], "nothing above the floor to leave")
        let fromFloor = await router.back()
        #expect(fromFloor.success == [.leave("list"), .switch("root", to: "home")], "without keep, the tab is left first")
        #expect(await router.route(to: .ids("root", "other")).success == [.switch("root", to: "other")])
        _ = await router.route(to: .ids("root", "other", "list"))
        #expect(await router.route(to: .ids("root", "other")).success == [.leave("list")], "a route leaves it")
    }

    @Test func theScreensBackCanLeaveAreTopFirstAndNeverATabsRoot() async throws {
        let router = try await router(on: [p1, reviews])
        #expect(router.tree.backScreens == [reviews, p1])
        #expect(BackDistance.screens(2).description == "2 screens")
        #expect(BackDistance.keeping(1).description == "keeping 1")
    }
}
