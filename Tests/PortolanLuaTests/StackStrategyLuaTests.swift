import Portolan
import PortolanLua
import Testing
import TestSupport

/// The stack strategies through the host (issue 35, §2): the launch modes the peers define, a
/// push's `pop_up_to`, and `portolan.back`'s distances, in Lua and in a declaration.
@Suite struct StackStrategyLuaTests {
    /// A home screen whose products push products and reviews, and reviews push products.
    static func app(launch: String = "") -> String {
        """
        portolan.app {
          id = "root", kind = "switch", children = {
            { id = "home", push = { "product", "reviews" }, children = {
              { id = "product", push = { "product", "reviews" }, \(launch) },
              { id = "reviews", push = { "product" } },
            } },
          },
        }
        function product(id) return { id = "product", context = { id = id } } end
        """
    }

    /// Runs `script` once the stack is three products.
    private func run(_ script: String, launch: String = "") async throws -> [String] {
        let host = try await PortolanHost.quiet(loading: Self.app(launch: launch))
        return try await host.run(
            "portolan.route { \"root\", \"home\", product(1), product(2), product(3) }\n" + script, chunkName: "s.lua")
    }

    @Test func eachLaunchModeReadsInAPushAndAsADestination() async throws {
        let shown = try await run("""
            local a = portolan.push(product(3), { launch = "push_new" })
            local b = portolan.route { push = product(9), launch = "pop_to" }
            local c = portolan.push(product(9), { launch = "pop_to_or_push" })
            local d = portolan.push(product(1), { launch = "single_task" })
            local e = portolan.push("reviews", { launch = "pop_to" })
            local f = portolan.push("reviews", { launch = "pop_to_or_push" })
            return #a, table.concat(b, ", "), #c, table.concat(d, ", "), table.concat(e, ", "), #f
            """)
        #expect(shown == [
            "0", #""leave product {id=3}, enter product {id=9}""#, "0",
            #""leave product {id=9}, leave product {id=2}""#, #""leave product {id=1}, enter reviews""#, "0",
        ])
    }

    @Test func aDeclaredLaunchModeIsTheNodesDefault() async throws {
        let shown = try await run("""
            local ran = portolan.push(product(1))
            return table.concat(ran, ", "), #portolan.active_path()
            """, launch: #"launch = "single_task","#)
        #expect(shown == [#""leave product {id=3}, leave product {id=2}""#, "3"])
    }

    @Test func popUpToGoesBackFirstInTheSameRoute() async throws {
        let shown = try await run("""
            local ran = portolan.push(product(7), { pop_up_to = "home" })
            local again = portolan.push(product(7), { pop_up_to = "product", inclusive = true })
            return table.concat(ran, ", "), #again, #portolan.active_path()
            """)
        #expect(shown == [
            #""leave product {id=3}, leave product {id=2}, leave product {id=1}, enter product {id=7}""#, "0", "3",
        ])
    }

    @Test func badOptionsNameTheField() async throws {
        let shown = try await run("""
            local _, a = portolan.push(product(1), { launch = "bring_to_frontt" })
            local _, b = portolan.push(product(1), { pop_up_to = 3 })
            local _, c = portolan.push(product(1), { inclusive = true })
            local _, d = portolan.push(product(1), { pop_up_to = "home", inclusive = "yes" })
            return a.message, b.message, c.message, d.message
            """)
        #expect(shown.count == 4)
        guard shown.count == 4 else { return }
        #expect(shown[0].hasPrefix(#""launch must be one of push, push_new, single_top, clear_top, pop_to, pop_to_or_push, single_task, replace"#))
        #expect(shown[1].contains("pop_up_to must be a node id"))
        #expect(shown[2].contains("inclusive needs pop_up_to"))
        #expect(shown[3].contains("inclusive must be true or false"))
    }

    @Test func backTakesACountAKeepOrAPredicate() async throws {
        let shown = try await run("""
            portolan.push(product(4))
            local a = portolan.back(2)
            local b = portolan.back { keep = 1 }
            portolan.push(product(5))
            portolan.push(product(6))
            local seen = {}
            local c = portolan.back(function(entry)
              seen[#seen + 1] = entry.context.id
              return entry.context.id > 5
            end)
            local _, d = portolan.back(0)
            return table.concat(a, ", "), table.concat(b, ", "), table.concat(c, ", "), table.concat(seen, " "), d.kind
            """)
        #expect(shown == [
            #""leave product {id=4}, leave product {id=3}""#, #""leave product {id=2}""#, #""leave product {id=6}""#,
            #""6 5""#, #""invalid""#,
        ])
    }

    @Test func aBackThatIsNoDistanceIsRaisedAtTheCallersLine() async throws {
        for (argument, shown) in [("2.5", "2.5"), (#""far""#, "far"), ("{ keep = 1, extra = 2 }", "that table")] {
            let host = try await PortolanHost.quiet(loading: Self.app())
            await #expect(throws: (any Error).self) { try await host.run("\n\nportolan.back(\(argument))", chunkName: "s.lua") }
            let message = try await host.run(
                "local ok, message = pcall(portolan.back, \(argument))\nreturn message", chunkName: "s.lua")
            #expect(message.first?.contains("portolan.back expects nothing, a whole number of screens, { keep = n } or a function of an entry, not \(shown)") == true, "\(message)")
        }
    }

    @Test func aFloorIsDeclaredOnAScreenAndBackStopsAtIt() async throws {
        let host = try await PortolanHost.quiet(loading: """
            portolan.app { id = "root", children = { { id = "list", floor = true, children = { { id = "detail" } } } } }
            """)
        let shown = try await host.run("""
            portolan.route { "root", "list", "detail" }
            local ran = portolan.back(3)
            local again, err = portolan.back()
            return table.concat(ran, ", "), tostring(again), err.kind
            """, chunkName: "s.lua")
        #expect(shown == [#""leave detail""#, #""nil""#, #""unreachable""#])
        do {
            _ = try await PortolanHost.quiet(loading: #"portolan.app { id = "root", kind = "switch", floor = 1, children = { { id = "a" } } }"#)
            Issue.record("floor = 1 was accepted")
        } catch {
            #expect("\(error)".contains("node 'root': floor must be true or false, not a number"), "\(error)")
        }
    }
}
