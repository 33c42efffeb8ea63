import Portolan
import PortolanLua
import Synchronization
import Testing
import TestSupport

/// A reload keeps the session (issue 20, §4): the host's events go on across it, `portolan.state`
/// keeps what the session changed, and the new rules' guards are asked about the active path. And
/// a logout can drop the other tabs' stacks (`portolan.reset_tabs`).
@Suite struct ReloadSessionTests {
    /// A shop whose tabs need a login; `stateLine` says where `logged_in` lives.
    static func app(stateLine: String, guardReads: String) -> String {
        """
        \(stateLine)
        portolan.app {
          id = "root", kind = "switch", active = "login",
          children = {
            { id = "tabs", kind = "switch", active = "home", keep = true,
              guard = function()
                if not \(guardReads) then return portolan.redirect({ "root", "login" }, { resume = true }) end
              end,
              children = {
                { id = "home", children = { { id = "item" } } },
                { id = "account", children = { { id = "orders" } } },
              } },
            { id = "login" },
          },
        }
        """
    }

    /// Today's way: a global the script sets at its top, which a reload sets again.
    static let globalApp = app(stateLine: "logged_in = false", guardReads: "logged_in")
    /// The kept way: `portolan.state`, named once with `portolan.initial_state`.
    static let stateApp = app(
        stateLine: "local state = portolan.initial_state { logged_in = false }", guardReads: "state.logged_in")

    static let orders = Destination.path(["root", "tabs", "account", "orders"])

    @Test func eventsBeforeAndAfterAReloadArriveOnTheHostsStream() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        let stream = host.events()
        let observed = Mutex<[String]>([])
        await host.observeEvents { event in observed.withLock { $0.append(event.description) } }
        let oldRouterStream = try #require(await host.router).events()
        try await host.run("portolan.state.logged_in = true", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        try await host.reload(.source(Self.stateApp, chunkName: "app.lua"))
        #expect(await host.route(.path(["root", "tabs", "home", "item"])).success != nil)

        // Observers and the stream both hear the route after the reload, on the new router.
        let before = ["will_route root > tabs > account > orders", "did_route root > tabs > account > orders"]
        let after = ["will_route root > tabs > home > item", "did_route root > tabs > home > item"]
        let heard = observed.withLock { $0 }.filter { $0.hasPrefix("will_route") || $0.hasPrefix("did_route") }
        // Between them, the reload's own route: the guards asked again about the active path.
        #expect(heard == before + ["will_route root > tabs > account > orders", "did_route root > tabs > account > orders"] + after)
        var streamed: [String] = []
        for await event in stream {
            streamed.append(event.description)
            if event.description == after[1] { break }
        }
        #expect(streamed == observed.withLock { $0 })
        // The stream taken from the router the reload replaced ends instead of going silent.
        var fromOldRouter: [String] = []
        for await event in oldRouterStream { fromOldRouter.append(event.description) }
        #expect(fromOldRouter.filter { $0.hasPrefix("did_route") } == [before[1]])
    }

    @Test func aReloadOfAScriptThatResetsAGlobalSendsTheSessionBackThroughItsGuards() async throws {
        let host = try await PortolanHost.quiet(loading: Self.globalApp)
        try await host.run("logged_in = true", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        // The script sets `logged_in = false` again: the guards, asked again, send the user to log in.
        let reloaded = try await host.reload(.source(Self.globalApp, chunkName: "app.lua"))
        #expect(reloaded.left.isEmpty)
        #expect(reloaded.refresh.success.map(texts) == ["leave orders", "switch root -> login"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "login"])
        #expect(await host.pendingDestination == Self.orders)
    }

    @Test func theStateKeepsTheSessionAcrossAReload() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        try await host.run("portolan.state.logged_in = true; portolan.state.cart = { 'tea', { id = 7 } }", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        // A new version adds a key: the kept ones stay, the new one gets its first value.
        let next = Self.stateApp.replacingOccurrences(of: "logged_in = false }", with: "logged_in = false, theme = 'dark' }")
        let reloaded = try await host.reload(.source(next, chunkName: "app.lua"))
        #expect(reloaded.refresh == .success([]))
        #expect(await host.router?.activePath.map(\.id) == ["root", "tabs", "account", "orders"])
        let state = try await host.run(
            "local s = portolan.state; return s.logged_in, s.cart[1], s.cart[2].id, s.theme", chunkName: "s.lua")
        #expect(state == ["true", #""tea""#, "7", #""dark""#])
    }

    @Test func aFailedReloadPutsTheStateBack() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        try await host.run("portolan.state.logged_in = true", chunkName: "s.lua")
        let broken = "portolan.state.logged_in = false; portolan.state.extra = 1\n" + Self.stateApp + "\nerror('broken')"
        await #expect(throws: HostError.self) { try await host.reload(.source(broken, chunkName: "app.lua")) }
        let state = try await host.run("return portolan.state.logged_in, portolan.state.extra", chunkName: "s.lua")
        #expect(state == ["true", "nil"])
    }

    @Test func theStateHoldsPlainDataOnly() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        do {
            try await host.run("\nportolan.initial_state { on_done = function() end }", chunkName: "s.lua")
            Issue.record("a function is not plain data")
        } catch {
            #expect(error.message.hasPrefix("s.lua:2: portolan.initial_state's table.on_done holds a function; the state holds plain data"))
        }
        // Written straight into the state, it stops the next reload before the script runs.
        try await host.run("portolan.state.cart = { { id = 1, go = print } }", chunkName: "s.lua")
        do {
            try await host.reload(.source(Self.stateApp, chunkName: "app.lua"))
            Issue.record("a reload must refuse a state that is not plain data")
        } catch {
            #expect(error.message.hasPrefix("cannot reload: portolan.state.cart[1].go holds a function"))
        }
        try await host.run("portolan.state.cart = nil; local t = {}; t.self = t; portolan.state.loop = t", chunkName: "s.lua")
        await #expect(throws: HostError.self) { try await host.reload(.source(Self.stateApp, chunkName: "app.lua")) }
        try await host.run("portolan.state.loop = nil", chunkName: "s.lua")
        try await host.reload(.source(Self.stateApp, chunkName: "app.lua"))
        // The table itself cannot be replaced: the module is read-only.
        await #expect(throws: HostError.self) { try await host.run("portolan.state = {}", chunkName: "s.lua") }
    }

    @Test func aMetatableAFailedReloadSetsOnTheStateRunsNothingAndGoesWhenItIsPutBack() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        try await host.run("portolan.state.logged_in = true; portolan.state.visits = 3", chunkName: "s.lua")
        let hostile = """
            portolan.state.visits = nil
            setmetatable(portolan.state, { __newindex = function() while true do end end })
            error("broken")
            """
        await #expect(throws: HostError.self) { try await host.reload(.source(hostile, chunkName: "app.lua")) }
        let state = try await host.run("return rawget(portolan.state, 'visits'), portolan.state.logged_in", chunkName: "s.lua")
        #expect(state == ["3", "true"])
        // The state is put back as it was, plain data without the metatable: the next reload runs.
        #expect(try await host.run("return getmetatable(portolan.state)", chunkName: "s.lua") == ["nil"])
        try await host.reload(.source(Self.stateApp, chunkName: "app.lua"))
    }

    @Test func aDenialByTheNewRulesIsReportedAndTheTreeStays() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        try await host.run("portolan.state.logged_in = true", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        let strict = Self.stateApp + "\nportolan.intercept(function(request) if request:goes_to('orders') then return false end end)"
        let reloaded = try await host.reload(.source(strict, chunkName: "app.lua"))
        #expect(reloaded.refresh.failure?.kind == .denied)
        #expect(await host.router?.activePath.map(\.id) == ["root", "tabs", "account", "orders"])
    }

    @Test func aLogoutDropsTheOtherTabsStacks() async throws {
        let host = try await PortolanHost.quiet(loading: Self.stateApp)
        try await host.run("portolan.state.logged_in = true", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        #expect(await host.route(.path(["root", "tabs", "home", "item"])).success != nil)
        let dropped = try await host.run("""
            portolan.state.logged_in = false
            local dropped = portolan.reset_tabs()
            assert(portolan.refresh())
            return dropped[1].id, #dropped, portolan.find("orders")
            """, chunkName: "s.lua")
        #expect(dropped == [#""orders""#, "1", "nil"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "login"])
        // From Swift, one switch's stacks; a switch off the active path is refused.
        try await host.run("portolan.state.logged_in = true", chunkName: "s.lua")
        #expect(await host.route(Self.orders).success != nil)
        #expect(await host.route(.path(["root", "tabs", "home"])).success != nil)
        #expect(try await host.resetTabs(of: "tabs").map(\.id) == ["orders"])
        await #expect(throws: TreeUpdateError.notASwitch("login")) { try await host.resetTabs(of: "login") }
        let misuse = try? await host.run("portolan.reset_tabs(42)", chunkName: "s.lua")
        #expect(misuse == nil)
    }
}
