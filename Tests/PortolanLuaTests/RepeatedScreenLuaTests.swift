import Portolan
import PortolanLua
import Testing
import TestSupport

/// Repeated screens through the host (issue 20, §1): `push` on node tables, `portolan.push` and its
/// launch modes, `{ push = }` and `{ id =, nth = }` destinations, `portolan.find`'s `nth`, and the
/// root's `max_depth` and `max_copies`.
@Suite struct RepeatedScreenLuaTests {
    /// Three tabs that keep their stacks; one `product` screen that every tab and every product pushes.
    static func app(options: String = "", push: String = #"push = { "product" },"#) -> String {
        """
        log = {}
        local function record(node, entry, info) log[#log + 1] = info.instruction end
        portolan.app {
          id = "root", kind = "switch", active = "tabs", \(options)
          children = {
            { id = "login" },
            { id = "tabs", kind = "switch", keep = true, children = {
              { id = "home", \(push) children = {
                { id = "product", \(push) enter = record, leave = record },
              } },
              { id = "search", \(push) },
            } },
          },
        }
        function product(id) return { id = "product", context = { id = id } } end
        """
    }

    private func run(_ script: String, options: String = "", push: String = #"push = { "product" },"#) async throws -> [String] {
        let host = try await PortolanHost.quiet(loading: Self.app(options: options, push: push))
        return try await host.run(script, chunkName: "s.lua")
    }

    /// Today's error (`'home_product' is not a child of node 'home_product'`) is gone where the app
    /// declares the push, and stays where it does not.
    @Test func productOverProductRoutesOnceDeclared() async throws {
        let script = """
            local executed, err = portolan.route { "root", "tabs", "home", product(1), product(2), product(1) }
            return executed and table.concat(executed, ", "), err and err.message
            """
        #expect(try await run(script) == [#""enter product {id=1}, enter product {id=2}, enter product {id=1}""#, "nil"])
        #expect(try await run(script, push: "") == ["nil", #""'product' is not a child of node 'product'""#])
    }

    @Test func pushesFollowTheirLaunchModes() async throws {
        let shown = try await run("""
            portolan.push(product(1))
            local a = portolan.push(product(2))
            local b = portolan.push(product(3), { launch = "single_top" })
            local c = portolan.push(product(1), { launch = "clear_top" })
            local d = portolan.route { push = product(4), launch = "replace" }
            return a, b, c, d, #portolan.active_path()
            """)
        #expect(shown == [
            #"{ "enter product {id=2}" }"#, #"{ "leave product {id=2}", "enter product {id=3}" }"#,
            #"{ "leave product {id=3}" }"#, #"{ "leave product {id=1}", "enter product {id=4}" }"#, "4",
        ])
    }

    @Test func aPushBelongsToItsTabAndIsKeptWithIt() async throws {
        let shown = try await run("""
            portolan.push(product(1))
            portolan.switch_to("tabs", "search")
            portolan.push(product(2))
            portolan.push(product(3))
            portolan.switch_to("tabs", "home")
            local home = table.concat(portolan.active_path(), " ")
            portolan.switch_to("tabs", "search")
            local second = portolan.find("product", nil, 2)
            return home, #portolan.active_path(), second[#second].context.id, portolan.find("product", { id = 1 })[3].id
            """)
        #expect(shown == [#""root tabs home product""#, "5", "3", #""home""#])
    }

    @Test func theNthCopyIsADestination() async throws {
        let shown = try await run("""
            portolan.route { "root", "tabs", "home", product(1), product(2), product(3) }
            local back = portolan.route { id = "product", nth = 1 }
            local _, missing = portolan.route { id = "product", nth = 4 }
            local _, bad = portolan.route { id = "product", nth = 0 }
            return back, missing.kind, bad.message
            """)
        #expect(shown == [
            #"{ "leave product {id=3}", "leave product {id=2}" }"#, #""unreachable""#,
            #""nth must be a whole number from 1, as in { id = \"product\", nth = 2 }; got 0""#,
        ])
    }

    @Test func limitsAreRootOptionsAndNameThemselvesWhenHit() async throws {
        let shown = try await run("""
            for id = 1, 3 do portolan.push(product(id)) end
            local _, copies = portolan.push(product(4))
            return copies.kind, copies.message, #portolan.active_path()
            """, options: "max_copies = 3, max_depth = 10,")
        #expect(shown == [
            #""invalid""#, #""the active path would hold 4 copies of 'product', more than the app's limit of 3 (max_copies)""#, "6",
        ])
        let host = try PortolanHost()
        for (option, message) in [
            ("max_copies = 0,", "app.lua:3: max_copies must be a whole number from 1 to 1000, not 0"),
            ("max_depth = 1001,", "app.lua:3: max_depth must be a whole number from 2 to 1000, not 1001"),
        ] {
            do {
                try await host.loadApp(.source(Self.app(options: option), chunkName: "=app.lua"))
                Issue.record("\(option) must be refused")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test func badDeclarationsAndCallsFailAtTheScriptsLine() async throws {
        let host = try PortolanHost()
        for (push, message) in [
            (#"push = { "nowhere" },"#, "app.lua:3: 'home' pushes 'nowhere', which is not declared"),
            (#"push = "product","#, #"app.lua:3: node 'home': push must be a list of node ids, as in { "product" }, not a string"#),
            (#"launch = "twice","#, "app.lua:3: node 'home': launch must be one of push, push_new, single_top, clear_top, pop_to, pop_to_or_push, single_task, replace, bring_to_front, reorder_to_front, singular, not twice"),
        ] {
            do {
                try await host.loadApp(.source(Self.app(push: push), chunkName: "=app.lua"))
                Issue.record("\(push) must be refused")
            } catch {
                #expect(error.message == message)
            }
        }
        let shown = try await run("""
            local ok, message = pcall(portolan.push, product(1), "single_top")
            local _, err = portolan.push(product(1), { launch = "sometimes" })
            return message, err.message
            """)
        #expect(shown == [
            #""s.lua:1: portolan.push's options must be a table, as in { launch = \"single_top\" }""#,
            #""launch must be one of push, push_new, single_top, clear_top, pop_to, pop_to_or_push, single_task, replace, bring_to_front, reorder_to_front, singular; got \"sometimes\"""#,
        ])
    }
}
