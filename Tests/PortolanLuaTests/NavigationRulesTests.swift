import Portolan
import PortolanLua
import Testing
import TestSupport

/// The root table's routing options and the rules around guards, from Lua and from Swift.
@Suite struct NavigationRulesTests {
    /// `root > a > b > c` with a guarded `members` below `a`; `c` fails when `broken` is set.
    static func app(options: String = "") -> String {
        """
        calls, events, signed_in = {}, {}, false
        local function record(node, entry, info)
          calls[#calls + 1] = string.format("%s %d/%d last=%s animated=%s", info.instruction, info.index, info.count,
            tostring(info.last), tostring(info.animated))
        end
        portolan.app {
          id = "root", \(options)
          children = {
            { id = "a", enter = record, leave = record, children = {
              { id = "b", enter = record, leave = record, children = {
                { id = "c", enter = function(node, entry, info) record(node, entry, info) if broken then return false, "broken" end end },
              } },
              { id = "members", guard = function()
                  if not signed_in then return portolan.redirect({ "root", "login" }, { resume = true }) end
                end },
            } },
            { id = "login" },
          },
        }
        portolan.on("rolled_back", function(instruction) events[#events + 1] = "rolled_back " .. instruction end)
        portolan.on("redirected", function(to, from) events[#events + 1] = "redirected to " .. to[#to].id end)
        """
    }

    private func host(_ options: String = "") async throws -> PortolanHost {
        try await .quiet(loading: Self.app(options: options))
    }

    @Test func aFailedRouteRollsBackByDefaultAndReportsItsUndo() async throws {
        let host = try await host()
        let shown = try await host.run("""
            broken = true
            local _, err = portolan.route { "root", "a", "b", "c" }
            return err.rolled_back, portolan.active_path(), events
            """, chunkName: "s.lua")
        #expect(shown == [#"{ "leave b", "leave a" }"#, #"{ "root" }"#, #"{ "rolled_back leave b", "rolled_back leave a" }"#])
    }

    @Test func rollbackFalseKeepsWhatRan() async throws {
        let host = try await host("rollback = false,")
        let shown = try await host.run("""
            broken = true
            local _, err = portolan.route { "root", "a", "b", "c" }
            return err.rolled_back, portolan.active_path()
            """, chunkName: "s.lua")
        #expect(shown == ["nil", #"{ "root", "a", "b" }"#])
    }

    @Test func handlersLearnTheirPlaceInTheRoute() async throws {
        let last = try await host()
        _ = try await last.run(#"portolan.route { "root", "a", "b" }"#, chunkName: "s.lua")
        #expect(try await last.evaluate("table.concat(calls, '; ')") == [#""enter a 1/2 last=false animated=false; enter b 2/2 last=true animated=true""#])
        let each = try await host(#"animate = "each","#)
        _ = try await each.run(#"portolan.route { "root", "a", "b" }"#, chunkName: "s.lua")
        #expect(try await each.evaluate("table.concat(calls, '; ')") == [#""enter a 1/2 last=false animated=true; enter b 2/2 last=true animated=true""#])
    }

    @Test func theRedirectLimitIsTheApps() async throws {
        let script = """
            portolan.intercept(function(request)
              if request:goes_to("c") then return portolan.redirect { "root", "a", "b" } end
              if request:goes_to("b") then return portolan.redirect { "root", "a" } end
            end)
            local done, err = portolan.route { "root", "a", "b", "c" }
            if done then return "ok", portolan.active_path()[2] end
            return err.kind, err.redirect_chain, err.message
            """
        let short = try await host("max_redirects = 1,")
        #expect(try await short.run(script, chunkName: "s.lua") == [
            #""invalid""#, #""too_long""#, #""too many redirects: more than 1: 'root > a > b > c' → 'root > a > b' → 'root > a'""#,
        ])
        let long = try await host("max_redirects = 2,")
        #expect(try await long.run(script, chunkName: "s.lua") == [#""ok""#, #""a""#])
    }

    @Test func aGuardHoldsForRoutesBelowANodeAlreadyOnThePath() async throws {
        let host = try await host()
        _ = await host.route(.ids("root", "a", "b"))
        // `a` is on the path; `members` below it is guarded whenever a route goes there.
        let result = await host.route(.ids("root", "a", "members"))
        #expect((try? result.get())?.map(\.description) == ["leave b", "leave a", "enter login"])
        #expect(await host.pendingDestination == .ids("root", "a", "members"))
        #expect(await host.router?.activePath.map(\.id) == ["root", "login"])
    }

    @Test func resumeAndRefreshFromSwift() async throws {
        let host = try await host()
        _ = await host.route(.ids("root", "a", "members"))
        _ = try await host.run("signed_in = true", chunkName: "s.lua")
        let resumed = await host.resume()
        #expect((try? resumed?.get())?.map(\.description) == ["leave login", "enter a", "enter members"])
        #expect(await host.pendingDestination == nil)
        #expect(await host.resume() == nil)
        // Signed out: refreshing asks the guard again, which sends the user to log in.
        _ = try await host.run("signed_in = false", chunkName: "s.lua")
        let refreshed = await host.refresh()
        #expect((try? refreshed.get())?.map(\.description) == ["leave members", "leave a", "enter login"])
        let events = try await host.evaluate("events")
        #expect(events == [#"{ "redirected to login", "redirected to login" }"#])
    }

    @Test func historyIsBoundedAndBackLeavesTheTopScreen() async throws {
        let host = try await host("history = 2,")
        let shown = try await host.run("""
            portolan.route { "root", "a" }
            portolan.route { "root", "a", "b" }
            local back = portolan.back()
            local history = portolan.history()
            local last = history[#history]
            return #history, last.executed[1], last.ok, back[1]
            """, chunkName: "s.lua")
        #expect(shown == ["2", #""leave b""#, "true", #""leave b""#])
        // From Swift: the root has nothing above it to go back from... after leaving `a`.
        #expect((try? await host.back().get())?.map(\.description) == ["leave a"])
        guard case .failure(let failure) = await host.back() else {
            Issue.record("back from the root must fail")
            return
        }
        #expect(failure.kind == .unreachable)
        #expect(await host.router?.history.count == 2)
    }

    @Test func aRefreshThatIsDeniedFailsAsDenied() async throws {
        let host = try await host()
        let shown = try await host.run("""
            portolan.route { "root", "a", "b" }
            portolan.intercept(function() return portolan.deny("maintenance") end)
            local _, err = portolan.refresh()
            return err.kind, err.message, portolan.active_path()
            """, chunkName: "s.lua")
        #expect(shown == [#""denied""#, #""maintenance""#, #"{ "root", "a", "b" }"#])
    }
}

/// One depth limit for an app, the engine's (`NavigationGraph.maximumDepth`, 1,000 levels).
@Suite struct AppDepthLimitTests {
    static func chain(_ depth: Int) -> String {
        """
        local node = { id = "n\(depth)" }
        for i = \(depth - 1), 1, -1 do node = { id = "n" .. i, children = { node } } end
        portolan.app(node)
        """
    }

    @Test func anAppAsDeepAsTheEngineAllowsLoadsAndOneLevelMoreIsRefused() async throws {
        let deepest = try PortolanHost()
        try await deepest.loadApp(.source(Self.chain(NavigationGraph.maximumDepth), chunkName: "=deep.lua"))
        #expect(await deepest.graph?.nodes.count == NavigationGraph.maximumDepth)
        let tooDeep = try PortolanHost()
        do {
            try await tooDeep.loadApp(.source(Self.chain(NavigationGraph.maximumDepth + 1), chunkName: "=deep.lua"))
            Issue.record("a chain deeper than the limit must be refused")
        } catch {
            #expect(error.message.contains("1000"), "\(error.message)")
            #expect(!error.message.contains("nesting deeper than"), "\(error.message)")
        }
    }

    /// Found by the app-spec fuzzer: a chain of 1,005 nodes or more was refused as
    /// `portolan:224: table nesting deeper than 2008`, naming neither the app's line nor the
    /// node; the module now refuses the first node past the limit at the app's line.
    @Test func aChainFarPastTheLimitIsRefusedAtTheAppsLineNamingTheNode() async throws {
        for depth in [1_005, 2_010] {
            let host = try PortolanHost()
            do {
                try await host.loadApp(.source(Self.chain(depth), chunkName: "=deep.lua"))
                Issue.record("a chain of \(depth) must be refused")
            } catch {
                #expect(error.message == "deep.lua:3: node 'n1001' is declared deeper than 1000 levels", "\(error.message)")
            }
        }
    }
}

/// Invalid UTF-8 in an id or a URL is named as such, and a malformed URL is `invalid` (issue 10, item 7).
@Suite struct InvalidTextTests {
    @Test func invalidUTF8IsNamedAndInvalid() async throws {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.source(#"portolan.app { id = "root", children = { { id = "a", route = "/a" } } }"#, chunkName: "=app.lua"))
        let shown = try await host.run(#"""
            local _, byURL = portolan.match("/a\255")
            local _, byRoute = portolan.route("/a\255")
            local _, byID = portolan.route { "root", "a\255" }
            return byURL.kind, byURL.message, byRoute.kind, byID.kind, byID.message
            """#, chunkName: "=s.lua")
        #expect(shown == [
            #""invalid""#, #""malformed URL: it is not valid UTF-8""#, #""invalid""#, #""invalid""#,
            #""an id must be valid UTF-8 text""#,
        ])
    }
}
