@testable import Portolan
import TestSupport
import Testing

/// The strategies that change a context in place (issue 35, §2): an update of the top screen
/// (React Navigation's `setParams`, go_router's `replace` of the same page) and entry identity
/// (React Navigation's `getId`), which makes a route or a push that finds the same screen update
/// it instead of leaving it and entering another.
@Suite struct InPlaceUpdateTests {
    private let p1 = ShopGraph.product(1), p2 = ShopGraph.product(2)
    private let red = ShopGraph.product(1, ["colour": .string("red")])
    private let blue = ShopGraph.product(1, ["colour": .string("blue")])
    private let reviews = Entry("reviews")

    /// The home tab's stack after routing `destination` from `stack`, and what it took.
    private func routed(
        _ destination: Destination, from stack: [Entry], key: [String] = []
    ) throws -> (stack: [Entry], ran: [Instruction]) {
        var tree = try ShopGraph.tree(key: key)
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home") + stack))
        let ran = try planAndApply(&tree, to: destination)
        return (Array(tree.activePath.dropFirst(3)), ran)
    }

    // MARK: Replace in place

    /// React Navigation's `setParams`: the top screen takes the context, and is neither left nor
    /// entered; merging keeps what it had; the same context changes nothing.
    @Test func anUpdateChangesTheTopScreensContextInPlace() throws {
        #expect(try routed(.update(red), from: [p1]) == ([red], [.update(p1, to: red)]))
        let merged = try routed(.update(Entry("product", context: ["colour": .string("blue")]), merging: true), from: [red])
        #expect(merged == ([blue], [.update(red, to: blue)]))
        #expect(try routed(.update(p1), from: [p1, reviews, p1]) == ([p1, reviews, p1], []))
        // Without merging, the context is the one given: the colour goes.
        #expect(try routed(.update(p1), from: [p2, reviews, red]).stack == [p2, reviews, p1])
    }

    @Test func anUpdateOfAnotherScreenThanTheTopFails() throws {
        #expect(throws: RouteFailure(.unreachable, "an update of 'product' needs it on top: the top screen is 'reviews'")) {
            try routed(.update(red), from: [p1, reviews])
        }
        #expect(throws: RouteFailure(.invalid, "malformed entry 'product {id=nan}': ids must be non-empty and numbers finite")) {
            try routed(.update(Entry("product", context: ["id": .number(.nan)])), from: [p1])
        }
    }

    @Test func anUpdatePrintsAndIsSavedCanonically() throws {
        #expect(Instruction.update(p1, to: red).description == "update product {id=1} -> product {colour=red,id=1}")
        #expect(Destination.update(red).description == "update product {colour=red,id=1}")
        #expect(Destination.update(red, merging: true).description == "merge product {colour=red,id=1}")
        for destination in [Destination.update(red), .update(red, merging: true)] {
            #expect(try SnapshotFields.destination(SnapshotFields.destination(destination), path: "d") == destination)
        }
        let instruction = Instruction.update(p1, to: red)
        #expect(try SnapshotFields.instruction(SnapshotFields.instruction(instruction), path: "i") == instruction)
    }

    // MARK: Entry identity

    /// React Navigation's `getId`: with `key = { "id" }`, two products with the same id are the
    /// same screen, so a route to it in another context updates it where it stands, even below
    /// other screens; another id is another screen, left and entered.
    @Test func aKeyMakesARouteUpdateTheSameScreen() throws {
        #expect(try routed(.path(ShopGraph.path("home", blue)), from: [red], key: ["id"]) == ([blue], [.update(red, to: blue)]))
        #expect(try routed(.path(ShopGraph.path("home", p2)), from: [red], key: ["id"]).ran == [.leave(red), .enter(p2)])
        // Below the top: what goes is left first, then the survivor is updated, then the rest entered.
        let below = try routed(.path(ShopGraph.path("home", blue, p2)), from: [red, reviews], key: ["id"])
        #expect(below == ([blue, p2], [.leave(reviews), .update(red, to: blue), .enter(p2)]))
        // Without a key the whole context is the identity, as before.
        #expect(try routed(.path(ShopGraph.path("home", blue)), from: [red]).ran == [.leave(red), .enter(blue)])
    }

    /// The launch modes find "this very entry" by the key: push_new on the same screen updates it
    /// rather than pushing a copy, clear_top goes back to it and updates it.
    @Test func theLaunchModesFindTheSameScreenByItsKey() throws {
        #expect(try routed(.push(blue, launch: .pushNew), from: [red], key: ["id"]) == ([blue], [.update(red, to: blue)]))
        #expect(try routed(.push(blue, launch: .pushNew), from: [red]).stack == [red, blue], "no key: another entry")
        let clear = try routed(.push(blue, launch: .clearTop), from: [red, reviews], key: ["id"])
        #expect(clear == ([blue], [.leave(reviews), .update(red, to: blue)]))
        #expect(try routed(.push(blue, launch: .popTo), from: [red, reviews], key: ["id"]).ran == [.leave(reviews), .update(red, to: blue)])
        // An update names the deepest equal entry: one with an equal copy above it is left and
        // entered again instead, so that the instruction means one thing wherever it is applied.
        let copies = try routed(.path(ShopGraph.path("home", blue, reviews, red)), from: [red, reviews, red], key: ["id"])
        #expect(copies == ([blue, reviews, red], [.leave(red), .leave(reviews), .leave(red), .enter(blue), .enter(reviews), .enter(red)]))
        let top = try routed(.path(ShopGraph.path("home", red, reviews, blue)), from: [red, reviews, red], key: ["id"])
        #expect(top == ([red, reviews, blue], [.update(red, to: blue)]))
    }

    @Test func aKeyThatNamesAFieldTwiceOrNoneIsRefused() {
        let twice = NodeSpec.switch("root", [NodeSpec.screen("a").keyed(by: "id", "id")])
        #expect(throws: GraphError.invalidKey("a", field: "id")) { try NavigationGraph(root: twice) }
        let empty = NodeSpec.switch("root", [NodeSpec.screen("a").keyed(by: "")])
        #expect(throws: GraphError.invalidKey("a", field: "")) { try NavigationGraph(root: empty) }
    }

    // MARK: The router

    /// Through the router as through the planner: a node without a key is updated in place too,
    /// not left and entered (the route once became a path to the top first, and a path to an
    /// unkeyed screen in another context leaves and enters it).
    @Test func theRouterUpdatesAnUnkeyedTopScreenInPlace() async throws {
        let router = Router(graph: try ShopGraph.graph())
        _ = await router.route(to: .path(ShopGraph.path("home", red)))
        #expect(await router.route(to: .update(blue)).success == [.update(red, to: blue)])
        let size = ShopGraph.product(1, ["colour": .string("blue"), "size": .string("L")])
        #expect(await router.route(to: .update(Entry("product", context: ["size": .string("L")]), merging: true)).success == [
            .update(blue, to: size),
        ])
        #expect(router.activePath == ShopGraph.path("home", size))
    }

    /// The node's `update` handler is told the new entry, the route is one record, and a failure
    /// after it undoes it with its inverse, which the handler is told too.
    @Test func theRouterTellsTheUpdateHandlerAndUndoesIt() async throws {
        let told = Locked<[Entry]>([])
        let router = Router(graph: try ShopGraph.graph(key: ["id"]))
        router.bind(NodeHandlers(update: { entry, _ in told.withLock { $0.append(entry) } }), to: "product")
        router.bind(NodeHandlers(enter: { _, _ in throw HandlerTimeout("reviews never showed") }), to: "reviews")
        _ = await router.route(to: .path(ShopGraph.path("home", red)))
        #expect(await router.route(to: .update(blue)).success == [.update(red, to: blue)])
        #expect(router.activePath == ShopGraph.path("home", blue))
        let failed = await router.route(to: .path(ShopGraph.path("home", red, reviews)))
        #expect(failed.failure?.executed == [.update(blue, to: red)])
        #expect(failed.failure?.rolledBack == [.update(red, to: blue)])
        #expect(router.activePath == ShopGraph.path("home", blue))
        #expect(told.value == [blue, red, blue])
    }
}
