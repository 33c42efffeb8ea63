import Portolan
import PortolanLua
import Testing
import TestSupport

/// What a handler may keep past its call (docs/rules.md, "What a handler may keep"): the node and
/// the entry, which stay what they were; not `info`, which the host reuses and fills anew for
/// each call, so that a call allocates no table.
@Suite struct HandlerContractTests {
    /// `root > a > b` and `root > tabs (x | y)`, every handler recording what it was given;
    /// `p` takes a context.
    static let app = """
        kept, seen = {}, {}
        local function record(node, entry, info)
          kept[#kept + 1] = { node = node, entry = entry, info = info, index = info.index }
          seen[#seen + 1] = string.format("%s %s %d/%d url=%s ref=%s", info.instruction, entry.id, info.index, info.count,
            tostring(info.url), tostring(info.query and info.query.ref))
        end
        portolan.app {
          id = "root",
          children = {
            { id = "a", route = "/a", enter = record, leave = record, children = {
              { id = "b", route = "/a/b", enter = record, leave = record },
            } },
            { id = "p", enter = record, leave = record },
            { id = "tabs", kind = "switch", switch = record, children = { { id = "x" }, { id = "y" } } },
          },
        }
        """

    @Test func aKeptInfoShowsALaterCallsFieldsWhatWasCopiedStays() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a", "b" })
            assert(#kept == 2)
            return kept[1].index, kept[2].index, kept[1].info.index, kept[1].info.count
            """, chunkName: "s.lua")
        // What the first handler copied is its own; its kept info now holds the second call's fields.
        #expect(shown == ["1", "2", "2", "2"])
    }

    @Test func theNodeAndAContextFreeEntryStayWhatTheyWere() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a", "b" })
            assert(portolan.route { "root" })
            assert(#kept == 4)
            local enter_a, leave_a = kept[1], kept[4]
            return enter_a.node == leave_a.node, enter_a.node.id, enter_a.entry.id, next(enter_a.entry.context),
              leave_a.entry.id, kept[2].entry.id
            """, chunkName: "s.lua")
        #expect(shown == ["true", #""a""#, #""a""#, "nil", #""a""#, #""b""#])
    }

    @Test func anEntryWithAContextIsItsOwn() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route { "root", { id = "p", context = { id = 1 } } })
            assert(portolan.route { "root", { id = "p", context = { id = 2 } } })
            assert(#kept == 3)
            return kept[1].entry.context.id, kept[2].entry.context.id, kept[3].entry.context.id
            """, chunkName: "s.lua")
        #expect(shown == ["1", "1", "2"])
    }

    @Test func eachCallSeesItsOwnURLInstructionAndChild() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let shown = try await host.run("""
            assert(portolan.route("/a/b?ref=mail"))
            assert(portolan.route { "root", "a" })
            assert(portolan.route { "root", "tabs", "y" })
            return seen
            """, chunkName: "s.lua")
        // The second route was not asked for by URL: nothing of the first one's URL is left in info.
        let expected = [
            "enter a a 1/2 url=/a/b?ref=mail ref=mail", "enter b b 2/2 url=/a/b?ref=mail ref=mail",
            "leave b b 1/1 url=nil ref=nil",
            "leave a a 1/3 url=nil ref=nil", "switch tabs -> y y 3/3 url=nil ref=nil",
        ]
        #expect(shown.count == 1)
        #expect(shown.first == "{\n" + expected.map { "  \"\($0)\"" }.joined(separator: ",\n") + "\n}")
    }

    @Test func infoDestinationIsReadAnewForEachCall() async throws {
        let host = try await PortolanHost.quiet(loading: """
            seen = {}
            local function record(node, entry, info) seen[#seen + 1] = info.destination[#info.destination].id end
            portolan.app { id = "root", children = { { id = "a", enter = record, children = { { id = "b", enter = record } } } } }
            """)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a" })
            assert(portolan.route { "root", "a", "b" })
            return seen
            """, chunkName: "s.lua")
        #expect(shown == [#"{ "a", "b" }"#])
    }

    /// The host clears `info`'s fields only when a call left one there (a lazy read, a URL, or a
    /// handler's own write), so whichever filled it, the next call does not see it.
    @Test func whatAHandlerWritesIntoInfoIsGoneForTheNextCall() async throws {
        let host = try await PortolanHost.quiet(loading: """
            seen = {}
            local function scribble(node, entry, info)
              seen[#seen + 1] = string.format("%s url=%s query=%s under=%s", entry.id, tostring(info.url), tostring(info.query), tostring(info.under))
              info.url, info.query, info.under = "/forged", { ref = "x" }, entry
            end
            portolan.app { id = "root", children = { { id = "a", enter = scribble, children = {
              { id = "b", enter = scribble, children = { { id = "c", enter = scribble } } } } } } }
            """)
        let shown = try await host.run("""
            assert(portolan.route { "root", "a", "b", "c" })
            return table.concat(seen, "; ")
            """, chunkName: "s.lua")
        #expect(shown == [#""a url=nil query=nil under=nil; b url=nil query=nil under=nil; c url=nil query=nil under=nil""#])
    }
}
