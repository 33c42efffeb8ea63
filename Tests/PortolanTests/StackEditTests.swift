@testable import Portolan
import TestSupport
import Testing

/// The strategies that edit a stack below its top (issue 35, §2): bring to front, reorder to
/// front, singular, set the whole stack with its survivors kept, and act below the top, with the
/// peers' own cases (Tests/PeerCases/StackStrategies.md §§4, 5, 6, 13, 16).
///
/// The app: a root screen with three screens `a`, `b` and `c` that push each other (Decompose's
/// configurations), and `sheet`, declared under `b` only, which stands on nothing else.
@Suite struct StackEditTests {
    private static func graph() throws -> NavigationGraph {
        let pushed: [NodeID] = ["a", "b", "c"]
        let root = NodeSpec("root", children: [
            NodeSpec("a", pushes: pushed),
            NodeSpec("b", children: [NodeSpec("sheet", pushes: pushed)], pushes: pushed),
            NodeSpec("c", pushes: pushed),
        ], pushes: pushed)
        return try NavigationGraph(root: root)
    }

    private let a = Entry("a"), b = Entry("b"), sheet = Entry("sheet")
    private func c(_ value: Int64) -> Entry { Entry("c", context: ["v": .integer(value)]) }

    /// The stack above the root after routing `destination` from `stack`, and what it took.
    private func routed(_ destination: (Self) -> Destination, from stack: [Entry]) throws -> (stack: [Entry], ran: [Instruction]) {
        var tree = RoutingTree(graph: try Self.graph())
        _ = try planAndApply(&tree, to: .path(["root"] + stack))
        let ran = try planAndApply(&tree, to: destination(self))
        return (Array(tree.activePath.dropFirst()), ran)
    }

    private func pushed(_ entry: Entry, _ mode: LaunchMode, onto stack: [Entry]) throws -> (stack: [Entry], ran: [Instruction]) {
        try routed({ _ in .push(entry, launch: mode) }, from: stack)
    }

    /// Decompose's `RouterReplaceAllTest` and its docs: the screens both stacks hold are kept,
    /// wherever they stand; the others are removed or entered.
    @Test func aResetKeepsTheScreensBothStacksHold() throws {
        // [1, 2, 3] replaceAll(3, 4, 5) → [3, 4, 5]: 3 is kept, neither left nor entered.
        #expect(try routed({ .reset(["root", $0.c(3), $0.c(4), $0.c(5)]) }, from: [c(1), c(2), c(3)]) == (
            [c(3), c(4), c(5)], [.remove(c(2)), .remove(c(1)), .enter(c(4)), .enter(c(5))]))
        // [A, B, C*] replaceAll(B, C, D) → [B, C, D*].
        #expect(try routed({ .reset(["root", $0.b, $0.c(1), $0.c(2)]) }, from: [a, b, c(1)]) == (
            [b, c(1), c(2)], [.remove(a), .enter(c(2))]))
        // [1, 2, 3] navigate → [1, 4, 5]: 1 untouched, as a path route would do it.
        #expect(try routed({ .reset(["root", $0.c(1), $0.c(4), $0.c(5)]) }, from: [c(1), c(2), c(3)]).ran == [
            .leave(c(3)), .leave(c(2)), .enter(c(4)), .enter(c(5)),
        ])
        // A path route to the same stack leaves and enters instead.
        #expect(try routed({ .path(["root", $0.b, $0.c(1)]) }, from: [a, b, c(1)]).ran == [
            .leave(c(1)), .leave(b), .leave(a), .enter(b), .enter(c(1)),
        ])
    }

    /// Decompose issue #19: A ← B ← C ← D to C ← E ← A in one step, C and A kept; and a reversal
    /// keeps every screen (`ChildStackIntegrationTest`).
    @Test func aResetMovesTheScreensItKeepsOutOfOrder() throws {
        let edited = try routed({ .reset(["root", $0.c(3), $0.c(5), $0.c(1)]) }, from: [c(1), c(2), c(3), c(4)])
        #expect(edited.stack == [c(3), c(5), c(1)])
        #expect(edited.ran == [.leave(c(4)), .remove(c(2)), .enter(c(5)), .move(c(1), under: nil)])
        let reversed = try routed({ .reset(["root", $0.c(3), $0.c(2), $0.c(1)]) }, from: [c(1), c(2), c(3)])
        #expect(reversed.stack == [c(3), c(2), c(1)])
        #expect(reversed.ran.allSatisfy { if case .move = $0 { true } else { false } })
    }

    /// An edit exists only where every screen may stand on the one below it: where one cannot
    /// (the sheet stands on b alone), the route leaves and enters as a path route does.
    @Test func whereTheGraphRefusesAnEditTheRouteLeavesAndEnters() throws {
        #expect(try routed({ .reset(["root", $0.a, $0.b, $0.sheet]) }, from: [b, sheet]) == (
            [a, b, sheet], [.insert(a, under: b)]))
        // Keeping the sheet would mean c standing under it, where only b may.
        #expect(try routed({ .reset(["root", $0.b, $0.c(1), $0.b, $0.sheet]) }, from: [b, sheet]) == (
            [b, c(1), b, sheet], [.leave(sheet), .enter(c(1)), .enter(b), .enter(sheet)]))
    }

    /// Decompose's `RouterBringToFrontTest`: every entry of the node goes, and the pushed one is on
    /// top; an equal one already there is kept, moved rather than entered again.
    @Test func bringToFrontRemovesEveryEntryOfTheNode() throws {
        #expect(try pushed(c(0), .bringToFront, onto: [a, b]) == ([a, b, c(0)], [.enter(c(0))]))
        #expect(try pushed(c(0), .bringToFront, onto: [a, c(0), b]) == ([a, b, c(0)], [.move(c(0), under: nil)]))
        #expect(try pushed(c(1), .bringToFront, onto: [c(0), a, b]) == ([a, b, c(1)], [.remove(c(0)), .enter(c(1))]))
        let several = try pushed(c(1), .bringToFront, onto: [c(0), a, c(1), b])
        #expect(several.stack == [a, b, c(1)])
        #expect(several.ran.contains(.remove(c(0))))
        #expect(!several.ran.contains(.enter(c(1))) && !several.ran.contains(.leave(c(1))))
    }

    /// Decompose's `RouterPushToFrontTest` and Android's A, B, C, D + B = A, C, D, B: the nearest
    /// equal entry moves to the top; absent, a push; on top, nothing.
    @Test func reorderToFrontMovesTheNearestEqualEntryToTheTop() throws {
        #expect(try pushed(b, .reorderToFront, onto: [a, b, c(1), c(2)]) == ([a, c(1), c(2), b], [.move(b, under: nil)]))
        #expect(try pushed(c(3), .reorderToFront, onto: [c(1), c(2)]) == ([c(1), c(2), c(3)], [.enter(c(3))]))
        #expect(try pushed(c(1), .reorderToFront, onto: [c(1), c(2), c(3)]).stack == [c(2), c(3), c(1)])
        #expect(try pushed(c(3), .reorderToFront, onto: [c(1), c(2), c(3)]) == ([c(1), c(2), c(3)], []))
        // [1, 1, 3] pushToFront(1) → [1, 3, 1]: only the topmost copy moves.
        #expect(try pushed(c(1), .reorderToFront, onto: [c(1), c(1), c(3)]) == ([c(1), c(3), c(1)], [.move(c(1), under: nil)]))
        #expect(try pushed(c(1), .reorderToFront, onto: [c(1), c(2), c(1)]) == ([c(1), c(2), c(1)], []))
    }

    /// Expo Router's `singular` with the product's id as its key: `/profile-1, /profile-2,
    /// /profile-3` then profile 2 gives `/profile-1, /profile-3, /profile-2`, one copy surviving.
    @Test func singularKeepsOneCopyOfTheSameScreen() throws {
        var tree = try ShopGraph.tree(key: ["id"])
        let (p1, p2, p3) = (ShopGraph.product(1), ShopGraph.product(2), ShopGraph.product(3))
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home", p1, p2, p3)))
        #expect(try planAndApply(&tree, to: .push(p2, launch: .singular)) == [.move(p2, under: nil)])
        #expect(tree.activePath == ShopGraph.path("home", p1, p3, p2))
        // [p1, p2, p2', p3, p2''] with p2: one p2 survives, in the new context, and nothing is entered.
        let (again, other) = (ShopGraph.product(2, ["tab": .string("x")]), ShopGraph.product(2, ["tab": .string("y")]))
        _ = try planAndApply(&tree, to: .path(ShopGraph.path("home", p1, again, other, p3, p2)))
        let ran = try planAndApply(&tree, to: .push(p2, launch: .singular))
        #expect(tree.activePath == ShopGraph.path("home", p1, p3, p2))
        #expect(!ran.contains { if case .enter = $0 { true } else { false } })
    }

    /// React Navigation's pop with a `source` below the top and Decompose's `navigate` filters:
    /// a screen removed or replaced where it stands, what is above it kept.
    @Test func aScreenBelowTheTopIsRemovedOrReplacedWhereItStands() throws {
        // [baz, bar, qux*] pop() source = bar → [baz, qux*].
        #expect(try routed({ .remove($0.b) }, from: [a, b, c(1)]) == ([a, c(1)], [.remove(b)]))
        #expect(try routed({ .replace($0.b, with: $0.c(2)) }, from: [a, b, c(1)]) == (
            [a, c(2), c(1)], [.remove(b), .insert(c(2), under: c(1))]))
        // The top is left; a screen that is not there cannot be removed.
        #expect(try routed({ .remove($0.c(1)) }, from: [a, b, c(1)]) == ([a, b], [.leave(c(1))]))
        #expect(throws: RouteFailure.self) { try routed({ .remove($0.c(9)) }, from: [a, b]) }
        // Nor can one be removed from under a screen that may not stand on what is left.
        #expect(throws: RouteFailure.self) { try routed({ .remove($0.b) }, from: [a, b, sheet]) }
    }

    /// A removal is told to the screen's `leave`, an insertion to its `enter` and a move to its
    /// `move`; a route that fails after them undoes each with its inverse, told as well.
    @Test func theRouterTellsTheHandlersAndUndoesAnEdit() async throws {
        let told = Locked<[String]>([])
        let failing = Entry("c", context: ["fail": .boolean(true)])
        let handler: @Sendable (Entry, InstructionInfo) throws -> Void = { entry, info in
            told.withLock { $0.append(info.instruction.description) }
            if entry == failing { throw HandlerError("\(entry) fails") }
        }
        let router = Router(graph: try Self.graph())
        for id in ["a", "b", "c"] {
            router.bind(NodeHandlers(enter: handler, leave: handler, move: handler), to: id)
        }
        _ = await router.route(to: .path(["root", a, b, c(1)]))
        told.withLock { $0 = [] }
        #expect(await router.route(to: .push(a, launch: .reorderToFront)).success == [.move(a, under: nil)])
        #expect(router.activePath == ["root", b, c(1), a])
        let failed = await router.route(to: .reset(["root", c(2), b, c(1), failing]))
        #expect(failed.failure?.executed == [.leave(a), .insert(c(2), under: b)])
        #expect(failed.failure?.rolledBack == [.remove(c(2)), .enter(a)])
        #expect(router.activePath == ["root", b, c(1), a])
        #expect(told.value == [
            "move a to top", "leave a", "insert c {v=2} under b", "enter c {fail=true}", "remove c {v=2}", "enter a",
        ])
    }

    /// On random stacks of a, b and c screens (the sheet only on b), a reset to a random stack
    /// arrives exactly there; when its plan edits the stack, no screen both stacks hold is left or
    /// entered, and applying each instruction's inverse, newest first, gives back the stack it
    /// started from.
    @Test func aResetNeverLeavesOrEntersAScreenBothStacksHold() throws {
        var random = SeededRandom(seed: 35)
        var edits = 0
        for _ in 0..<400 {
            let (from, to) = (randomStack(&random), randomStack(&random))
            var tree = RoutingTree(graph: try Self.graph())
            _ = try planAndApply(&tree, to: .path(["root"] + from))
            let start = tree
            let ran = try planAndApply(&tree, to: .reset(["root"] + to))
            #expect(tree.activePath == ["root"] + to, "\(from) to \(to): \(ran)")
            guard ran.contains(where: { if case .remove = $0 { true } else if case .insert = $0 { true } else if case .move = $0 { true } else { false } })
            else { continue }
            edits += 1
            let both = Set(from).intersection(to)
            let touched = ran.compactMap { instruction -> Entry? in
                switch instruction {
                case .enter(let entry), .leave(let entry): entry
                default: nil
                }
            }
            #expect(both.isDisjoint(with: touched), "\(from) to \(to): \(ran)")
            var undone = tree
            for inverse in InstructionExecutor.inverses(of: ran, from: start).reversed() { try undone.apply(inverse) }
            #expect(undone.activePath == start.activePath, "\(from) to \(to): \(ran)")
        }
        #expect(edits > 100)
    }

    /// A stack of up to five distinct screens that the graph allows: a, b and c in any order, in
    /// one of three contexts for c, and the sheet only on b.
    private func randomStack(_ random: inout SeededRandom) -> [Entry] {
        var stack: [Entry] = []
        for _ in 0..<random.int(in: 0...5) {
            let candidates = [a, b, c(1), c(2), c(3)] + (stack.last == b ? [sheet] : [])
            if let next = random.pick(candidates.filter { !stack.contains($0) }) { stack.append(next) }
        }
        return stack
    }

    /// Each new instruction has its text and its snapshot form, and comes back from it.
    @Test func theStacksInstructionsPrintAndAreSavedCanonically() throws {
        let instructions: [Instruction] = [.remove(b), .insert(a, under: b), .move(c(1), under: b), .move(c(1), under: nil)]
        #expect(instructions.map(\.description) == ["remove b", "insert a under b", "move c {v=1} under b", "move c {v=1} to top"])
        for instruction in instructions {
            #expect(try SnapshotFields.instruction(SnapshotFields.instruction(instruction), path: "$") == instruction)
        }
        let destinations: [Destination] = [.reset(["root", a]), .remove(b), .replace(b, with: a)]
        #expect(destinations.map(\.description) == ["reset root > a", "remove b", "replace b with a"])
        for destination in destinations {
            #expect(try SnapshotFields.destination(SnapshotFields.destination(destination), path: "$") == destination)
        }
    }

    /// The tree refuses what would break its invariants, and changes nothing then.
    @Test func theTreeRefusesAnEditTheGraphDoesNotAllow() throws {
        var tree = RoutingTree(graph: try Self.graph())
        _ = try planAndApply(&tree, to: .path(["root", a, b, sheet]))
        let before = tree
        #expect(throws: TreeUpdateError.cannotStand("sheet", onTopOf: "a")) { try tree.apply(.remove(b)) }
        #expect(throws: TreeUpdateError.isTopScreen(sheet)) { try tree.apply(.remove(sheet)) }
        #expect(throws: TreeUpdateError.cannotStand("sheet", onTopOf: "c")) { try tree.apply(.insert(c(1), under: sheet)) }
        #expect(throws: TreeUpdateError.cannotStand("sheet", onTopOf: "root")) { try tree.apply(.move(sheet, under: a)) }
        #expect(tree == before)
    }
}
