@testable import Portolan
import TestSupport
import Testing

/// Where back takes a tab bar (issue 35, §2): React Navigation's `backBehavior`, with its own
/// cases (Tests/PeerCases/StackStrategies.md, §15) on tabs a, b, c, d declared in that order, b
/// initial.
@Suite struct TabBackBehaviorTests {
    private func router(_ back: TabBackBehavior) throws -> Router {
        let tabs = NodeSpec("root", kind: .switch, active: "b", children: ["a", "b", "c", "d"].map { NodeSpec.screen($0) }, back: back)
        return Router(graph: try NavigationGraph(root: tabs))
    }

    /// The tabs back shows, one back after another, until back has nowhere to go, after tapping
    /// `taps` in turn.
    private func backs(_ back: TabBackBehavior, after taps: [NodeID]) async throws -> [NodeID] {
        let router = try router(back)
        for tab in taps {
            #expect(await router.route(to: .ids("root", tab)).success != nil)
        }
        var shown: [NodeID] = []
        while shown.count < 10, await router.back().success != nil {
            shown.append(router.activePath.last?.id ?? "")
        }
        #expect(await router.back().failure?.kind == .unreachable)
        return shown
    }

    private let taps: [NodeID] = ["a", "c", "d", "c", "b"]

    @Test func firstReturnsToTheFirstTab() async throws {
        #expect(try await backs(.first, after: taps) == ["a"])
        #expect(try await backs(.first, after: ["a"]) == [], "on the first tab back goes on outward")
    }

    @Test func initialReturnsToTheInitialTab() async throws {
        #expect(try await backs(.initial, after: taps) == [], "b is the initial tab")
        #expect(try await backs(.initial, after: ["d", "c"]) == ["b"])
    }

    /// React Navigation's `handles back action with backBehavior: order`: the tab declared before,
    /// not the one visited before.
    @Test func orderReturnsToTheTabDeclaredBefore() async throws {
        #expect(try await backs(.order, after: taps) == ["a"])
        #expect(try await backs(.order, after: ["d"]) == ["c", "b", "a"])
    }

    /// React Navigation's `history`: each tab once, where it was left last, so a tab tapped again
    /// is no longer in the history below.
    @Test func historyReturnsThroughEachTabOnce() async throws {
        #expect(try await backs(.history, after: taps) == ["c", "d", "a"])
        #expect(try await backs(.history, after: ["c"]) == ["b"])
    }

    /// React Navigation's `fullHistory`: every switch away, repeats and all, as a browser's history.
    @Test func fullHistoryReturnsThroughEverySwitch() async throws {
        #expect(try await backs(.fullHistory, after: taps) == ["c", "d", "c", "a", "b"])
    }

    @Test func noneNeverSwitches() async throws {
        #expect(try await backs(.none, after: taps) == [])
    }

    /// A screen open inside the active tab is left first, whatever the behaviour; the names are
    /// the peers'.
    @Test func aScreenInsideTheTabIsLeftFirst() async throws {
        let tabs = NodeSpec("root", kind: .switch, children: [.screen("a"), .screen("b", [.screen("detail")])], back: .first)
        let router = Router(graph: try NavigationGraph(root: tabs))
        _ = await router.route(to: .ids("root", "b", "detail"))
        #expect(await router.back().success == [.leave("detail")])
        #expect(await router.back().success == [.switch("root", to: "a")])
        #expect(TabBackBehavior.allCases.map(\.rawValue) == ["first", "initial", "order", "history", "full_history", "none"])
    }
}
