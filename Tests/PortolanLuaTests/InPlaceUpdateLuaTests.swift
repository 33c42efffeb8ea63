import Portolan
import PortolanLua
import Testing
import TestSupport

/// Contexts changed in place through the host (issue 35, §2): a node's `key`, its `update`
/// handler, `portolan.update` and `portolan.merge` on the top screen, and `portolan.push_context`,
/// which back undoes.
@Suite struct InPlaceUpdateLuaTests {
    /// Products keyed by their id, whose update handler records what it was told.
    static let app = """
        told = {}
        portolan.app {
          id = "root", kind = "switch", children = {
            { id = "home", push = { "product" }, children = {
              { id = "product", key = "id", push = { "product" },
                update = function(node, entry, info)
                  told[#told + 1] = info.previous.context.colour .. " > " .. tostring(entry.context.colour)
                    .. " (" .. info.instruction .. ")"
                end },
            } },
          },
        }
        function product(id, colour) return { id = "product", context = { id = id, colour = colour } } end
        """

    private func run(_ script: String) async throws -> [String] {
        let host = try await PortolanHost.quiet(loading: Self.app)
        return try await host.run(#"portolan.route { "root", "home", product(1, "red") }"# + "\n" + script, chunkName: "s.lua")
    }

    @Test func aKeyedScreenInAnotherContextIsUpdatedAndItsHandlerTold() async throws {
        let shown = try await run("""
            local ran = portolan.route { "root", "home", product(1, "blue") }
            local other = portolan.route { "root", "home", product(2, "blue") }
            return table.concat(ran, ", "), table.concat(other, ", "), told[1], #told
            """)
        #expect(shown == [
            #""update product {colour=red,id=1} -> product {colour=blue,id=1}""#,
            #""leave product {colour=blue,id=1}, enter product {colour=blue,id=2}""#,
            #""red > blue (update product {colour=red,id=1} -> product {colour=blue,id=1})""#, "1",
        ])
    }

    @Test func updateAndMergeChangeTheTopScreensContext() async throws {
        let shown = try await run("""
            local merged = portolan.merge { id = "product", context = { size = "L" } }
            local replaced = portolan.update { id = "product", context = { id = 1, colour = "green" } }
            local top = portolan.active_entries()[3]
            return table.concat(merged, ", "), table.concat(replaced, ", "), top.context.colour, tostring(top.context.size)
            """)
        #expect(shown == [
            #""update product {colour=red,id=1} -> product {colour=red,id=1,size=L}""#,
            #""update product {colour=red,id=1,size=L} -> product {colour=green,id=1}""#, #""green""#, #""nil""#,
        ])
    }

    @Test func anUpdateOfAnotherScreenFailsAndABadOneIsRaisedAtItsLine() async throws {
        let shown = try await run("""
            local ran, err = portolan.update("home")
            local ok, message = pcall(portolan.merge, 42)
            return tostring(ran), err.kind, err.message, message
            """)
        #expect(shown == [
            #""nil""#, #""unreachable""#, #""an update of 'home' needs it on top: the top screen is 'product {colour=red,id=1}'""#,
            #""s.lua:3: portolan.merge expects the top screen's entry { id =, context = }, not a number""#,
        ])
    }

    /// An update is a route through every node above the top screen: their guards see it, with the
    /// whole path as its destination, and so do the top's handlers; a node without a key is
    /// updated in place as well.
    @Test func anUpdatesGuardsAndHandlersSeeTheWholePath() async throws {
        let host = try await PortolanHost.quiet(loading: """
            seen = {}
            portolan.app {
              id = "root", kind = "switch", children = {
                { id = "home", push = { "note" },
                  guard = function(node, request) seen[#seen + 1] = "guard " .. #request.destination end,
                  children = {
                    { id = "note", update = function(node, entry, info) seen[#seen + 1] = "update " .. #info.destination end },
                  } },
              },
            }
            """)
        let shown = try await host.run("""
            portolan.route { "root", "home", { id = "note", context = { text = "a" } } }
            seen = {}
            local ran = portolan.update { id = "note", context = { text = "b" } }
            return table.concat(ran, ", "), table.concat(seen, ", ")
            """, chunkName: "s.lua")
        #expect(shown == [#""update note {text=a} -> note {text=b}""#, #""guard 3, update 3""#])
    }

    /// React Navigation 8's `pushParams`: the top screen remembers the context it had, back gives
    /// it back in place (its update handler told), and a reload carries what it remembers.
    @Test func pushContextIsUndoneByBackAndSurvivesAReload() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            portolan.route { "root", "home", product(1, "red") }
            portolan.push_context(product(1, "blue"))
            local back = portolan.back()
            portolan.push_context(product(1, "green"))
            local _, wrong = portolan.route { update = product(1, "x"), memory = "forget" }
            return table.concat(back, ", "), told[#told], wrong.kind, wrong.message
            """, chunkName: "s.lua")
        #expect(shown == [
            #""update product {colour=blue,id=1} -> product {colour=red,id=1}""#,
            #""red > green (update product {colour=red,id=1} -> product {colour=green,id=1})""#, #""invalid""#,
            #""memory is \"keep\", \"remember\" or \"restore\"; got \"forget\"""#,
        ])
        _ = try await host.reload(.source(Self.app, chunkName: "app.lua"))
        let after = try await host.run("""
            local back = portolan.back()
            local _, nothing = portolan.route { update = product(1, "x"), memory = "restore" }
            return table.concat(back, ", "), nothing.message
            """, chunkName: "s.lua")
        #expect(after == [
            #""update product {colour=green,id=1} -> product {colour=red,id=1}""#,
            #""'product {colour=red,id=1}' remembers no earlier context to restore""#,
        ])
    }

    @Test func aKeyThatIsNoFieldNameIsRefusedAtTheDeclaration() async throws {
        for (key, reason) in [
            ("3", "key must be a context field's name or a list of them, as in { \"id\" }, not a number"),
            ("{}", "key must be a context field's name or a list of them, as in { \"id\" }, not a table"),
            ("{ \"id\", 2 }", "key[2] must be a context field's name, not 2"),
            ("{ \"id\", \"id\" }", "key names 'id' twice"),
        ] {
            let script = "portolan.app { id = \"root\", children = { { id = \"a\", key = \(key) } } }"
            do {
                _ = try await PortolanHost.quiet(loading: script)
                Issue.record("key = \(key) was accepted")
            } catch {
                #expect("\(error)".contains("app.lua:1:") && "\(error)".contains(reason), "\(error)")
            }
        }
    }
}
