import Foundation
import Lua
import Portolan
import PortolanLua
import TestSupport
import Testing

/// Snapshots and restores through the host (docs/snapshots.md): round trips, migrations, the
/// guards on the restored path, refusals that leave the tree as it was.
@Suite struct SnapshotRestoreTests {
    static func app(version: Int = 1, migrations: String = "", tabA: String = "a", extra: String = "") -> String {
        """
        logged_in = true
        entered = {}
        portolan.app { id = "root", version = \(version), \(migrations)
          children = {
            { id = "tabs", kind = "switch", keep = true, back = "history",
              guard = function(node, request) if not logged_in then return portolan.redirect { "root", "login" } end end,
              children = {
                { id = "\(tabA)", enter = function(node, entry) entered[#entered + 1] = entry.id end,
                  children = { { id = "item", children = { { id = "detail" } } } } },
                { id = "b", children = { { id = "list" } } },
                \(extra)
              } },
            { id = "login" },
          } }
        """
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A host with a kept stack in tab a and the active path in tab b.
    private func hostWithKeptStack(_ app: String = Self.app()) async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: app)
        _ = try await host.run("""
            assert(portolan.route { "root", "tabs", "a", { id = "item", context = { id = 7, ratio = 0.5 } }, "detail" })
            assert(portolan.route { "root", "tabs", "b", "list" })
            """, chunkName: "s.lua")
        return host
    }

    @Test func snapshotRestoreSnapshotIsByteIdentical() async throws {
        let host = try await hostWithKeptStack()
        let first = try await host.snapshotBytes()
        let fresh = try await PortolanHost.quiet(loading: Self.app())
        let outcome = await fresh.restore(first)
        #expect(outcome == .restored(guards: .passed))
        let second = try await fresh.snapshotBytes()
        #expect(text(second) == text(first))
        #expect(await fresh.router?.activePath.map(\.id) == ["root", "tabs", "b", "list"])
        // The kept stack came back: switching to tab a shows it.
        let path = try await fresh.run("assert(portolan.switch_to('tabs', 'a')); return table.concat(portolan.active_path(), '>')", chunkName: "s.lua")
        #expect(path == [#""root>tabs>a>item>detail""#])
    }

    @Test func theDocumentIsCanonical() async throws {
        let host = try await hostWithKeptStack()
        let document = text(try await host.snapshotBytes())
        #expect(document.hasPrefix(#"{"format":"portolan-snapshot/2","history":["#))
        #expect(!document.contains(" "))
        #expect(document.contains(#""context":{"id":7,"ratio":0.5}"#))
        #expect(document.contains(#""switch_history":{"tabs":[{"id":"a"}]}"#))
    }

    @Test func aDeclaredRenameIsMigratedAndReported() async throws {
        let saved = try await hostWithKeptStack().snapshotBytes()
        let renamed = Self.app(version: 2, migrations: #"migrations = { [2] = { renamed = { a = "home" } } },"#, tabA: "home")
        let host = try await PortolanHost.quiet(loading: renamed)
        let outcome = await host.restore(saved)
        #expect(outcome.name == "migrated")
        #expect(outcome.changes == [.renamed("a", to: "home", version: 2)])
        let path = try await host.run("assert(portolan.switch_to('tabs', 'home')); return table.concat(portolan.active_path(), '>')", chunkName: "s.lua")
        #expect(path == [#""root>tabs>home>item>detail""#])
    }

    @Test func aDeclaredMoveReRootsThePathAndKeepsTheOtherStacks() async throws {
        // Version 2 moved 'item' (with 'detail' above it) from tab a to tab b; tab b's list stays kept.
        let moved = """
            portolan.app { id = "root", version = 2, migrations = { [2] = { moved = { item = { "tabs", "b" } } } },
              children = {
                { id = "tabs", kind = "switch", keep = true, children = {
                  { id = "a" },
                  { id = "b", children = { { id = "list" }, { id = "item", children = { { id = "detail" } } } } } } },
                { id = "login" } } }
            """
        // Saved with the active path in tab b: restore it, move to tab a's stack, save that.
        let origin = try await hostWithKeptStack()
        _ = try await origin.run("assert(portolan.switch_to('tabs', 'a'))", chunkName: "s.lua")
        let inTabA = try await origin.snapshotBytes()
        let host = try await PortolanHost.quiet(loading: moved)
        let outcome = await host.restore(inTabA)
        #expect(outcome.changes == [.moved("item", under: ["tabs", "b"], version: 2), .dropped("list", reason: "the move of 'item' took its place (version 2)")])
        #expect(await host.router?.activePath.map(\.id) == ["root", "tabs", "b", "item", "detail"])
    }

    @Test func rulesThatDeclareAnOldStateIncompatibleRefuseIt() async throws {
        let saved = try await hostWithKeptStack().snapshotBytes()
        let host = try await PortolanHost.quiet(loading: Self.app(version: 3, migrations: "migrations = { [3] = { incompatible = true } },"))
        let outcome = await host.restore(saved)
        #expect(outcome == .refused("the rules declare it incompatible: version 3 cannot carry over states saved by version 1"))
        #expect(await host.router?.activePath.map(\.id) == ["root"])
    }

    @Test func anUndeclaredLossIsReportedAndTheLongestPrefixKept() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app())
        _ = try await host.run(#"assert(portolan.route { "root", "tabs", "a", "item", "detail" })"#, chunkName: "s.lua")
        let saved = try await host.snapshotBytes()
        let changed = try await PortolanHost.quiet(loading: Self.app().replacingOccurrences(of: #"children = { { id = "detail" } }"#, with: ""))
        let outcome = await changed.restore(saved)
        #expect(outcome.name == "migrated")
        #expect(outcome.changes.count == 1)
        #expect(outcome.changes.first.map { "\($0)" }?.hasPrefix("dropped 'detail'") == true)
        #expect(await changed.router?.activePath.map(\.id) == ["root", "tabs", "a", "item"])
    }

    @Test func restoringRunsTheHandlersAsARouteDoes() async throws {
        let saved = try await hostWithKeptStack().snapshotBytes()
        let host = try await PortolanHost.quiet(loading: Self.app())
        _ = try await host.run(#"assert(portolan.route { "root", "login" })"#, chunkName: "s.lua")
        let entered = try await host.run("entered = {}", chunkName: "s.lua")
        #expect(entered.isEmpty)
        _ = await host.restore(saved)
        // The active path is in tab b: tab a's enter handler does not run for a kept stack.
        #expect(try await host.run("return #entered", chunkName: "s.lua") == ["0"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "tabs", "b", "list"])
    }

    @Test func aGuardThatNowRedirectsWins() async throws {
        let saved = try await hostWithKeptStack().snapshotBytes()
        let host = try await PortolanHost.quiet(loading: Self.app())
        _ = try await host.run("logged_in = false", chunkName: "s.lua")
        let outcome = await host.restore(saved)
        #expect(outcome == .restored(guards: .redirected(to: .ids("root", "login"))))
        #expect(await host.router?.activePath.map(\.id) == ["root", "login"])
    }

    @Test func aHandlerThatFailsRefusesTheRestoreNamingItsKindOnce() async throws {
        let saved = try await hostWithKeptStack().snapshotBytes()
        let host = try await PortolanHost.quiet(loading: Self.app(extra: #"{ id = "c" },"#)
            .replacingOccurrences(of: #"{ id = "list" }"#, with: #"{ id = "list", enter = function() error("list is broken") end }"#))
        let before = try await host.snapshotBytes()
        guard case .refused(let reason) = await host.restore(saved) else {
            Issue.record("a failing enter handler must refuse the restore")
            return
        }
        #expect(reason.hasPrefix("handler_failed: "), "\(reason)")
        #expect(!reason.contains("handler_failed: handler_failed"), "\(reason)")
        #expect(reason.contains("list is broken"), "\(reason)")
        #expect(try await host.snapshotBytes() == before)
    }

    @Test func hostileBytesAreRefusedAndTheTreeStays() async throws {
        let host = try await hostWithKeptStack()
        let before = try await host.snapshotBytes()
        let hostile: [[UInt8]] = [
            [], Array("null".utf8), Array("[[[[[[".utf8), Array(repeating: UInt8(ascii: "["), count: 100_000),
            Array(#"{"format":"portolan-snapshot/2"}"#.utf8), Array(#"{"format":"portolan-snapshot/1"}"#.utf8),
            Array(text(before).replacingOccurrences(of: #""version":1"#, with: #""version":9"#).utf8),
            Array(text(before).replacingOccurrences(of: #""active":1"#, with: #""active":99"#).utf8),
            [0xFF, 0xFE, 0x00],
        ]
        for bytes in hostile {
            let outcome = await host.restore(bytes)
            #expect(outcome.name == "refused", "\(text(bytes).prefix(60)) → \(outcome)")
            #expect(text(try await host.snapshotBytes()) == text(before))
        }
    }

    /// A document two readers could read differently is refused whole, naming where, and the app
    /// stays where it was (docs/snapshots.md).
    @Test func aKeyGivenTwiceIsRefusedWithWhereItStands() async throws {
        let host = try await PortolanHost.quiet(loading: #"portolan.app { id = "root", children = { { id = "a" } } }"#)
        _ = try await host.run(#"assert(portolan.route { "root", "a" })"#, chunkName: "s.lua")
        let twice = Array(#"{"format":"portolan-snapshot/2","format":"portolan-snapshot/1"}"#.utf8)
        #expect(await host.restore(twice) == .refused("not a snapshot: the bytes are not JSON (byte 32: the key 'format' appears twice)"))
        #expect(await host.router?.activePath == ["root", "a"])
    }

    /// A path as deep as the engine allows round-trips: the tree is a flat list in the document, so
    /// its depth is not JSON nesting (the reader refuses past `SnapshotLimits.maximumNesting`).
    @Test func aPathAThousandNodesDeepRoundTrips() async throws {
        let app = """
            portolan.app { id = "root", children = { { id = "s", push = { "s" } } } }
            """
        let host = try await PortolanHost.quiet(loading: app)
        _ = try await host.run(#"assert(portolan.route { "root", "s" }); for i = 1, 998 do assert(portolan.push({ id = "s", context = { n = i } })) end"#, chunkName: "s.lua")
        #expect(await host.router?.activePath.count == 1_000)
        let saved = try await host.snapshotBytes()
        let fresh = try await PortolanHost.quiet(loading: app)
        #expect(await fresh.restore(saved) == .restored(guards: .passed))
        #expect(text(try await fresh.snapshotBytes()) == text(saved))
        let nested = Array(repeating: UInt8(ascii: "["), count: 600) + Array(repeating: UInt8(ascii: "]"), count: 600)
        #expect(await fresh.restore(nested) == .refused("not a snapshot: its values nest deeper than \(SnapshotLimits.maximumNesting)"))
    }

    @Test func luaSnapshotAndRestore() async throws {
        let host = try await hostWithKeptStack()
        let result = try await host.run("""
            local doc = portolan.snapshot()
            assert(portolan.route { "root", "login" })
            local outcome = portolan.restore(doc)
            local refused = portolan.restore("{}")
            return outcome.outcome, table.concat(portolan.active_path(), ">"), refused.outcome, refused.reason
            """, chunkName: "s.lua")
        #expect(result == [#""restored""#, #""root>tabs>b>list""#, #""refused""#, #""not a snapshot: no 'format' field""#])
    }

    @Test func unsavableStateValuesAreRefusedWithTheirPath() async throws {
        let host = try await PortolanHost.quiet()
        let messages: [String] = try await host.perform { host in
            let values = try host.values(running: "return { cart = { items = { 1, print } } }, { n = 0/0 }, { [true] = 1 }", chunkName: "s.lua")
            return values.map { value in
                do {
                    _ = try AppStateValue.json(from: value)
                    return "saved"
                } catch {
                    return (error as? SnapshotError)?.reason ?? "\(error)"
                }
            }
        }
        #expect(messages == [
            "cannot save state.cart.items[2]: a function", "cannot save state.n: NaN or an infinity",
            "cannot save state: a key that is not a string (boolean)",
        ])
    }
}
