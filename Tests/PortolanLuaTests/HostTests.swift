import Portolan
import PortolanLua
import Testing
import TestSupport

/// A small app for host tests: root switch with a stack under `a`, a guarded `secret`, an anywhere `alert`.
let testApp = """
    calls = {}
    local function record(node, entry, info) calls[#calls + 1] = node.id .. ":" .. info.instruction end
    portolan.app {
      id = "root", kind = "switch", active = "a",
      children = {
        { id = "a", leave = record, children = {
            { id = "b", enter = record, leave = record, children = { { id = "c", enter = record } } },
            { id = "slow", enter = function() portolan.wait(0.01) calls[#calls + 1] = "slow done" end },
            { id = "loops", enter = function() while true do end end },
            { id = "hangs", enter = function() while true do portolan.wait(0.05) end end },
            { id = "greedy", enter = function() local s, t = string.rep("x", 1 << 20), {} for i = 1, 1e9 do t[i] = s .. i end end },
            { id = "throws", enter = function() error("kaboom") end },
            { id = "refuses", enter = function() return false, "not today" end },
            { id = "weird", enter = function() return 42 end },
            { id = "sticky", can_leave = function() return not sticky end },
          } },
        { id = "secret", guard = function(node, request) if not unlocked then return portolan.deny("locked") end end },
      },
      anywhere = { { id = "alert" } },
    }
    """

@Suite struct HostTests {
    private func host(_ configuration: HostConfiguration = .init(handlerTimeout: .seconds(2))) async throws -> PortolanHost {
        try await .quiet(loading: testApp, configuration: configuration)
    }

    private func run(_ host: PortolanHost, _ source: String) async throws -> [String] {
        try await host.run(source, chunkName: "scenario.lua")
    }

    /// Issue 10, item 5: the module every script shares is read-only to them, as the libraries are.
    @Test func thePortolanModuleIsReadOnlyToScripts() async throws {
        let host = try await host()
        let result = try await run(host, """
            local ok, why = pcall(function() portolan.route = function() end end)
            local raw_ok = pcall(rawset, portolan, "route", nil)
            local n = 0 for _ in pairs(portolan) do n = n + 1 end
            return ok, why, raw_ok, require("portolan") == portolan, n > 20, #assert(portolan.route { "root", "a", "b" })
            """)
        #expect(result == [
            "false", #""scenario.lua:1: cannot set portolan.route: the portolan module is read-only""#, "false", "true", "true", "1",
        ])
    }

    @Test func routeReturnsCanonicalInstructionsAndHandlersSeeInfo() async throws {
        let host = try await host()
        let result = try await run(host, """
            local done = assert(portolan.route { "root", "a", "b", { id = "c", context = { id = 42 } } })
            return table.concat(done, ";"), table.concat(calls, ";")
            """)
        #expect(result == [#""enter b;enter c {id=42}""#, #""b:enter b;c:enter c {id=42}""#])
    }

    @Test func handlerErrorsFailTheRouteWithFileAndLine() async throws {
        let host = try await host()
        let app = """
            portolan.app { id = "root", children = {
              { id = "boom", enter = function() error("kaboom") end },
            } }
            """
        try await host.loadApp(.source(app, chunkName: "boom.lua"))
        let result = try await run(host, """
            local _, err = portolan.route { "root", "boom" }
            return err.kind, err.message, err.instruction, #err.executed
            """)
        #expect(result == [#""handler_failed""#, #""boom.lua:2: kaboom""#, #""enter boom""#, "0"])
        #expect(try await run(host, "return table.concat(portolan.active_path(), '>')") == [#""root""#])
    }

    @Test func everyBadHandlerFailsOnlyItsRoute() async throws {
        let host = try await host(HostConfiguration(
            // Long enough that on a busy machine the budget and the memory cap stop `loops` and
            // `greedy` first: the time limit holds while a handler runs, not only while it waits.
            handlerTimeout: .seconds(3), handlerInstructionBudget: 1_000_000, memoryLimit: 32 << 20))
        let cases: [(NodeID, String, String)] = [
            ("loops", "handler_failed", "instruction budget"),
            ("hangs", "timeout", "did not finish"),
            ("greedy", "handler_failed", "memory"),
            ("refuses", "handler_failed", "not today"),
            ("weird", "handler_failed", "returned a number"),
        ]
        for (node, kind, words) in cases {
            let result = try await run(host, """
                local _, err = portolan.route { "root", "a", "\(node)" }
                return err.kind, err.message
                """)
            #expect(result.first == "\"\(kind)\"", "\(node): \(result)")
            #expect(result.last?.contains(words) == true, "\(node): \(result)")
        }
        // The host, its tree and its Lua state live on.
        #expect(try await run(host, #"return #assert(portolan.route { "root", "a", "b" })"#) == ["1"])
    }

    @Test func waitingHandlersAreAwaited() async throws {
        let host = try await host()
        let result = try await run(host, #"portolan.route { "root", "a", "slow" } return calls[#calls]"#)
        #expect(result == [#""slow done""#])
    }

    @Test func guardsDenyAndInterceptorsRedirect() async throws {
        let host = try await host()
        let result = try await run(host, """
            local _, err = portolan.route { "root", "secret" }
            portolan.intercept(function(request)
              if request:goes_to("alert") then return portolan.redirect { "root", "a", "b" } end
            end)
            local redirected = portolan.route("alert")
            unlocked = true
            local opened = portolan.route { "root", "secret" }
            return err.kind, err.message, table.concat(redirected, ";"), table.concat(opened, ";")
            """)
        #expect(result == [#""denied""#, #""locked""#, #""enter b""#, #""leave b;switch root -> secret""#])
    }

    @Test func canLeaveVetoBlocksAndPlanSaysSoToo() async throws {
        let host = try await host()
        let result = try await run(host, """
            assert(portolan.route { "root", "a", "sticky" })
            sticky = true
            local _, planned = portolan.plan { "root", "a" }
            local _, routed = portolan.route { "root", "a" }
            return planned.kind, routed.kind, routed.instruction, table.concat(portolan.active_path(), ">")
            """)
        #expect(result == [#""blocked""#, #""blocked""#, #""leave sticky""#, #""root>a>sticky""#])
    }

    @Test func routesFromHandlersAreQueuedAndRunBeforeTheOuterRouteReturns() async throws {
        let app = """
            order = {}
            portolan.app { id = "root", children = {
              { id = "a", enter = function()
                  local pending = portolan.route { "root", "b" }
                  order[#order + 1] = "a entered, queued: " .. tostring(pending.pending)
                end },
              { id = "b", enter = function() order[#order + 1] = "b entered" end },
            } }
            """
        // A host of its own: on the test app's host, the new app would carry its tree (on `a`).
        let host = try await PortolanHost.quiet(loading: app)
        let result = try await run(host, """
            local done = portolan.route { "root", "a" }
            return table.concat(done, ";"), table.concat(order, ";"), table.concat(portolan.active_path(), ">")
            """)
        #expect(result == [#""enter a""#, #""a entered, queued: true;b entered""#, #""root>b""#])
    }

    @Test func observersSeeEveryEventInOrder() async throws {
        let host = try await host()
        let result = try await run(host, """
            local seen = {}
            portolan.on("will_route", function(dest) seen[#seen + 1] = "will " .. #dest end)
            portolan.on("instruction", function(text) seen[#seen + 1] = text end)
            portolan.on("did_route", function(executed) seen[#seen + 1] = "did " .. #executed end)
            portolan.on("failed", function(err) seen[#seen + 1] = "failed " .. tostring(err) end)
            portolan.route { "root", "a", "b" }
            portolan.route { "root", "nowhere" }
            return table.concat(seen, ";")
            """)
        #expect(result == [#""will 3;enter b;did 1;will 2;failed unreachable: no node 'nowhere' is declared""#])
    }

    @Test func badDestinationsAreInvalidOrUnreachable() async throws {
        let host = try await host()
        let result = try await run(host, """
            local kinds = {}
            for _, dest in ipairs { 42, true, {}, { { id = 1 } }, { "root", { id = "a", context = { f = print } } } } do
              local _, err = portolan.route(dest)
              kinds[#kinds + 1] = err.kind
            end
            local _, unknown = portolan.route { "root", "zzz" }
            local _, notAnywhere = portolan.route "b"
            kinds[#kinds + 1] = unknown.kind
            kinds[#kinds + 1] = notAnywhere.kind
            return table.concat(kinds, ",")
            """)
        #expect(result == [#""invalid,invalid,invalid,invalid,invalid,unreachable,unreachable""#])
    }

    @Test func hostReportsFromLuaAreValidated() async throws {
        let host = try await host()
        let result = try await run(host, """
            portolan.did_enter("b")
            portolan.did_switch("root", "secret")
            local ok, message = pcall(portolan.did_enter, "c")
            return table.concat(portolan.active_path(), ">"), ok, message
            """)
        #expect(result.prefix(2) == [#""root>secret""#, "false"])
        #expect(result.last?.contains("scenario.lua:3:") == true)
    }

    @Test func appErrorsNameFileAndLineAndKeepTheHostUsable() async throws {
        let host = try PortolanHost()
        await #expect(throws: HostError.self) { try await host.loadApp(.source("portolan.app {", chunkName: "broken.lua")) }
        do {
            try await host.loadApp(.source("\nportolan.app { id = 'r', children = { { id = 'x', enter = 'nope' } } }", chunkName: "types.lua"))
            Issue.record("a string handler must be refused")
        } catch {
            #expect(error.message == "types.lua:2: node 'x': enter must be a function, not a string")
        }
        do {
            try await host.loadApp(
                .source("portolan.app { id = 'r', kind = 'switch', active = 'q', children = { { id = 'x' } } }", chunkName: "graph.lua"))
            Issue.record("a bad active must be refused")
        } catch {
            #expect(error.message.hasPrefix("graph.lua:1: switch node 'r' names 'q' as active"))
        }
        try await host.loadApp(.source(testApp, chunkName: "app.lua"))
        #expect(await host.route(.path(["root", "a", "b"])).success == [.enter("b")])
    }

    @Test func swiftNodesAndFunctionsJoinLuaOnes() async throws {
        struct Screen: Enterable {
            let seen: Locked<[String]>
            func enter(_ entry: Entry, info: InstructionInfo) async throws { seen.withLock { $0.append("swift \(entry)") } }
        }
        let host = try await host()
        let seen = Locked<[String]>([])
        await host.bind(Screen(seen: seen), to: "b")
        try await host.register(function: "double") { arguments in [.integer((arguments.first?.intValue ?? 0) * 2)] }
        let result = try await run(host, #"portolan.route { "root", "a", "b" } return double(21), #calls"#)
        #expect(result == ["42", "0"])
        #expect(seen.value == ["swift b"])
    }

    @Test func requireGivesTheSameModule() async throws {
        let host = try await host()
        #expect(try await run(host, #"return require("portolan") == portolan"#) == ["true"])
    }
}

extension Result {
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
