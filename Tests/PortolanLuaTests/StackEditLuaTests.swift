import Portolan
import PortolanLua
import Testing
import TestSupport

/// The stack edited below its top through the host (issue 35, §2): `portolan.reset`,
/// `portolan.remove` and `portolan.replace`, their destination literals, the launch modes that
/// edit the stack, and the handlers each instruction tells.
@Suite struct StackEditLuaTests {
    /// Products on the home tab, whose handlers record what they were told.
    static let app = """
        told = {}
        local function tell(kind)
          return function(node, entry, info)
            local under = info.under and (" under " .. tostring(info.under.context.id)) or ""
            told[#told + 1] = kind .. " " .. tostring(entry.context.id) .. under .. " (" .. info.instruction .. ")"
          end
        end
        portolan.app {
          id = "root", kind = "switch", children = {
            { id = "home", push = { "product" }, children = {
              { id = "product", push = { "product" }, enter = tell("enter"), leave = tell("leave"), move = tell("move") },
            } },
          },
        }
        function product(id) return { id = "product", context = { id = id } } end
        function stack()
          local ids = {}
          for depth, entry in ipairs(portolan.active_entries()) do
            if depth > 2 then ids[#ids + 1] = tostring(entry.context.id) end
          end
          return table.concat(ids, ",")
        end
        """

    private func run(_ script: String) async throws -> [String] {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let start = #"portolan.route { "root", "home", product(1), product(2), product(3) }; told = {}"#
        return try await host.run(start + "\n" + script, chunkName: "s.lua")
    }

    @Test func aResetKeepsTheScreensBothStacksHoldAndTellsTheRest() async throws {
        let shown = try await run("""
            local ran = portolan.reset { "root", "home", product(3), product(4) }
            return table.concat(ran, ", "), stack(), table.concat(told, "; ")
            """)
        #expect(shown == [
            #""remove product {id=2}, remove product {id=1}, enter product {id=4}""#, #""3,4""#,
            #""leave 2 (remove product {id=2}); leave 1 (remove product {id=1}); enter 4 (enter product {id=4})""#,
        ])
    }

    @Test func removeAndReplaceActBelowTheTop() async throws {
        let shown = try await run("""
            local removed = portolan.remove(product(2))
            local replaced = portolan.replace(product(1), product(9))
            return table.concat(removed, ", "), table.concat(replaced, ", "), stack(), told[#told]
            """)
        #expect(shown == [
            #""remove product {id=2}""#, #""remove product {id=1}, insert product {id=9} under product {id=3}""#,
            #""9,3""#, #""enter 9 under 3 (insert product {id=9} under product {id=3})""#,
        ])
    }

    @Test func theLaunchModesThatEditMoveAScreenToTheTop() async throws {
        let shown = try await run("""
            local reordered = portolan.push(product(1), { launch = "reorder_to_front" })
            local brought = portolan.route { push = product(2), launch = "bring_to_front" }
            local single = portolan.push(product(5), { launch = "singular" })
            return table.concat(reordered, ", "), table.concat(brought, ", "), stack(), told[1], #single
            """)
        #expect(shown == [
            #""move product {id=1} to top""#, #""leave product {id=1}, leave product {id=3}""#, #""2,5""#, #""move 1 (move product {id=1} to top)""#, "1",
        ])
    }

    /// A host that took a screen out from under the top itself reports it: nothing is told, the
    /// tree follows, and one it cannot take out is refused with the tree's reason.
    @Test func theHostReportsARemovalBelowTheTop() async throws {
        let shown = try await run("""
            portolan.did_remove(product(2))
            local ok, message = pcall(portolan.did_remove, product(3))
            return stack(), #told, message
            """)
        #expect(shown.count == 3)
        #expect(shown.prefix(2) == [#""1,3""#, "0"])
        #expect(shown.last?.contains("'product {id=3}' is the top screen: it is left, not removed") == true, "\(shown)")
    }

    @Test func theDestinationLiteralsAreReadAndBadOnesRefused() async throws {
        let shown = try await run("""
            local plan = portolan.plan { remove = product(2) }
            local _, missing = portolan.remove(product(7))
            local _, bad = portolan.route { replace = product(1) }
            local _, list = portolan.route { reset = "home" }
            local ok, message = pcall(portolan.reset, 3)
            return table.concat(plan, ", "), missing.kind, missing.message, bad.message, list.message, message
            """)
        #expect(shown == [
            #""remove product {id=2}""#, #""unreachable""#, #""'product {id=7}' is not on the active stack to be removed""#,
            #""replace needs with, the entry to put in its place, as in { replace = \"cart\", with = \"checkout\" }""#,
            #""reset takes a list of ids or entries from the root, as in { reset = { \"root\", \"home\" } }""#,
            #""s.lua:6: portolan.reset expects a list of ids or entries from the root, not a number""#,
        ])
    }
}
