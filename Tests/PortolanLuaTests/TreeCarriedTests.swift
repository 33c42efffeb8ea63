import Portolan
import PortolanLua
import Testing
import TestSupport

/// Issue 32, "tell the UI": a reload and a restore each end with one `treeCarried` event, with
/// every change the carry made, after which the tree holds every stack; docs/embedding.md's tab
/// rebuild, run here against a real host.
@Suite struct TreeCarriedTests {
    /// docs/embedding.md's loop, up to the first `treeCarried`: its changes, and each tab's stack
    /// rebuilt from the tree then.
    static func rebuildOnCarry(
        _ events: AsyncStream<RouterEvent>, of host: PortolanHost
    ) async -> (changes: [SnapshotChange], stacks: [String: [String]])? {
        for await event in events {
            guard case .treeCarried(let changes) = event else { continue }
            guard let tabs = await host.router?.tree.root, tabs.kind == .switch else { return (changes, [:]) }
            var stacks: [String: [String]] = [:]
            for tab in tabs.children {
                var stack: [String] = []
                var node: LiveNode? = tab
                while let current = node {
                    stack.append(current.entry.id)
                    node = current.activeChild
                }
                stacks[tab.entry.id] = stack
            }
            return (changes, stacks)
        }
        return nil
    }

    @Test(.timeLimit(.minutes(10))) func aReloadEndsWithTheWholeTreeAndItsChanges() async throws {
        let host = try await ReloadCarryTests.hostWithAKeptStack()
        let events = host.events()
        let v2 = #"portolan.on("tree_carried", function(changes) CARRIED = changes end)"# + "\n"
            + ReloadCarryTests.shop(#"{ id = "item" }"#)
        _ = try await host.reload(.source(v2, chunkName: "app.lua"))
        let dropped = SnapshotChange.dropped("product", reason: "the rules have no such node (no migration covers it)")
        let carry = await Self.rebuildOnCarry(events, of: host)
        #expect(carry?.changes == [dropped])
        #expect(carry?.stacks == ["books": ["books"], "cart": ["cart"]], "the kept stack lost its screen")
        // A script hears it too, each change in the words of the report.
        #expect(try await host.evaluate("CARRIED[1]") == ["\"\(dropped)\""])
    }

    @Test(.timeLimit(.minutes(10))) func aRestoreEndsWithTheWholeTree() async throws {
        let host = try await ReloadCarryTests.hostWithAKeptStack()
        let saved = try await host.snapshotBytes()
        #expect(await host.route(.path(["root", "books"])).isSuccess)
        let events = host.events()
        let outcome = await host.restore(saved)
        #expect(outcome.name == "restored", "\(outcome)")
        let carry = await Self.rebuildOnCarry(events, of: host)
        #expect(carry?.changes == [])
        #expect(carry?.stacks == ["books": ["books", "product"], "cart": ["cart"]])
        #expect(await host.router?.activePath.map(\.id) == ["root", "cart"])
    }
}
