import Portolan
import PortolanLua
import Synchronization
import Testing
import TestSupport

/// What an observer may keep, and how the host calls observers (docs/rules.md, "What an observer
/// may keep"): each observer is called directly, in the order added, with values of its own.
@Suite struct ObserverContractTests {
    /// Lines the host writes (observer failures among them).
    final class Output: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static let app = """
        portolan.app { id = "root", children = {
          { id = "a", children = { { id = "b" } } },
          { id = "p" },
          { id = "tabs", kind = "switch", children = { { id = "x" }, { id = "y" } } },
          { id = "bad", enter = function() error("no") end },
        } }
        """

    private func host(_ output: Output? = nil) async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: Self.app)
        if let output { await host.setOutput { output.append($0) } }
        return host
    }

    @Test func twoObserversOfOneEventGetTablesOfTheirOwnAndMayKeepThem() async throws {
        let host = try await host()
        let shown = try await host.run("""
            local kept, seen = nil, nil
            portolan.on("did_route", function(executed, dest)
              kept = kept or dest
              dest[1], executed[1] = "changed", "x"
            end)
            portolan.on("did_route", function(executed, dest) seen = dest[1].id .. " " .. executed[1] end)
            assert(portolan.route { "root", "a", "b" })
            assert(portolan.route { "root" })
            return seen, kept[1], kept[3].id, #kept
            """, chunkName: "s.lua")
        // Before, both observers shared one table: the second saw the first's change.
        #expect(shown == [#""root leave b""#, #""changed""#, #""b""#, "3"])
    }

    @Test func instructionTextsAreCanonicalWithAndWithoutContexts() async throws {
        let host = try await host()
        let shown = try await host.run("""
            local texts = {}
            portolan.on("instruction", function(text) texts[#texts + 1] = text end)
            portolan.on("rolled_back", function(text) texts[#texts + 1] = "undo " .. text end)
            for _ = 1, 2 do   -- the second time from the pinned texts
              assert(portolan.route { "root", { id = "p", context = { id = 7 } } })
              assert(portolan.route { "root", "tabs", "y" })
              assert(portolan.route { "root", "a" })
              assert(not portolan.route { "root", "bad" })
            end
            return table.concat(texts, ";")
            """, chunkName: "s.lua")
        // The route to `bad` leaves a, fails, and enters a again as it rolls back.
        let once = "enter p {id=7};leave p {id=7};enter tabs;switch tabs -> y;leave tabs;enter a;leave a;undo enter a"
        #expect(shown == ["\"" + once + ";leave a;" + once + "\""])
    }

    @Test func textsStayRightWhenMoreInstructionsThanSlotsAreObserved() async throws {
        // 1,200 screens below the root: 2,400 distinct instructions for the 1,024 slots of pinned texts.
        let host = try await PortolanHost.quiet(loading: """
            local children = {}
            for i = 1, 1200 do children[i] = { id = "c" .. i } end
            portolan.app { id = "root", children = children }
            """)
        let shown = try await host.run("""
            local last, wrong = nil, 0
            portolan.on("instruction", function(text) last = text end)
            portolan.on("did_route", function(executed) if executed[#executed] ~= last then wrong = wrong + 1 end end)
            for pass = 1, 2 do
              for i = 1, 1200 do
                assert(portolan.route { "root", "c" .. i })
                if last ~= "enter c" .. i then wrong = wrong + 1 end
              end
            end
            return wrong, last
            """, chunkName: "s.lua")
        #expect(shown == ["0", #""enter c1200""#])
    }

    @Test func aFailingObserverIsReportedAndTheOthersStillRun() async throws {
        let output = Output()
        let host = try await host(output)
        let shown = try await host.run("""
            local calls = {}
            portolan.on("instruction", function(text) error("observer broke on " .. text) end)
            portolan.on("instruction", function(text) calls[#calls + 1] = text end)
            portolan.on("failed", function(err) calls[#calls + 1] = tostring(err) end)
            assert(portolan.route { "root", "a" })
            portolan.route { "root", "nowhere" }
            return table.concat(calls, ";")
            """, chunkName: "s.lua")
        // The failed event's error is an error object (its __tostring), as before.
        #expect(shown == [#""enter a;unreachable: no node 'nowhere' is declared""#])
        #expect(output.all.count == 1)
        #expect(output.all.first == "observer of instruction failed: s.lua:2: observer broke on enter a")
    }

    @Test func anObserverAddedWhileAnEventIsDeliveredHearsThatEvent() async throws {
        let host = try await host()
        let shown = try await host.run("""
            local heard, added = {}, false
            portolan.on("instruction", function(text)
              if not added then
                added = true
                portolan.on("instruction", function(t) heard[#heard + 1] = "late " .. t end)
              end
              heard[#heard + 1] = text
            end)
            assert(portolan.route { "root", "a", "b" })
            return table.concat(heard, ";")
            """, chunkName: "s.lua")
        #expect(shown == [#""enter a;late enter a;enter b;late enter b""#])
    }

    @Test func aFailedReloadPutsTheObserversBack() async throws {
        let host = try await PortolanHost.quiet(
            loading: Self.app + "\nportolan.on(\"instruction\", function(text) heard = (heard or \"\") .. text .. \";\" end)")
        await #expect(throws: HostError.self) {
            try await host.reload(.source("portolan.on(\"instruction\", function() end)\nerror(\"broken\")", chunkName: "app.lua"))
        }
        _ = try await host.route(.path(["root", "a"])).get()
        // The reload failed: the one observer of the rules in service still hears, once.
        #expect(try await host.run("return heard", chunkName: "s.lua") == [#""enter a;""#])
    }
}
