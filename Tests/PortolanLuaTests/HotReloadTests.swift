import Portolan
import TestSupport
import PortolanLua
import Testing

@Suite struct HotReloadTests {
    static let version1 = """
        loaded = (loaded or 0) + 1
        portolan.intercept(function(request) if request:goes_to("secret") then return false end end)
        portolan.app { id = "root", children = {
          { id = "a", enter = function() entered = "a v1" end, children = { { id = "b", children = { { id = "c" } } } } },
          { id = "secret" },
        } }
        """

    static let version2 = """
        loaded = (loaded or 0) + 1
        portolan.app { id = "root", children = {
          { id = "a", enter = function() entered = "a v2" end, children = { { id = "b" } } },
          { id = "secret" },
        } }
        """

    private func host() async throws -> PortolanHost {
        try await .quiet(loading: Self.version1)
    }

    @Test func reloadKeepsTheTreeWhereItCanAndLeavesWhatIsGone() async throws {
        let host = try await host()
        _ = try await host.run(#"assert(portolan.route { "root", "a", "b", "c" })"#, chunkName: "s.lua")
        let reloaded = try await host.reload(.source(Self.version2, chunkName: "app.lua"))
        #expect(texts(reloaded.left) == ["leave c"])
        #expect(reloaded.refresh == .success([]))
        let result = try await host.run("""
            local path = table.concat(portolan.active_path(), ">")
            local secret = portolan.route { "root", "secret" }
            portolan.route { "root", "a" }
            return path, loaded, secret ~= nil
            """, chunkName: "s.lua")
        // The tree kept root > a > b; the v1 interceptor is gone with v1.
        #expect(result == [#""root>a>b""#, "2", "true"])
    }

    @Test func aFailedReloadKeepsThePreviousRules() async throws {
        let host = try await host()
        await #expect(throws: HostError.self) { try await host.reload(.source("portolan.app {", chunkName: "broken.lua")) }
        do {
            _ = try await host.reload(.source("portolan.app { id = 'root', children = { { id = 'x', enter = 5 } } }", chunkName: "bad.lua"))
            Issue.record("a bad graph must fail the reload")
        } catch {
            #expect(error.message.hasPrefix("reload failed; the previous rules stay: bad.lua:1:"))
        }
        let result = try await host.run("""
            local _, err = portolan.route { "root", "secret" }
            assert(portolan.route { "root", "a" })
            return err.kind, entered
            """, chunkName: "s.lua")
        #expect(result == [#""denied""#, #""a v1""#])
    }
}

/// What a reload carries to the new rules (issue 32): every kept stack as the active path, by the
/// migrations they declare, the conservative rule and their limits, each change reported.
@Suite struct ReloadCarryTests {
    /// A shop: two tabs that keep their stacks, `product` on the books tab's stack.
    static func shop(_ books: String, version: Int = 1, rest: String = "") -> String {
        """
        portolan.app { id = "root", kind = "switch", active = "books", keep = true, version = \(version), \(rest)
          children = {
            { id = "books", children = { \(books) } },
            { id = "cart" },
          } }
        """
    }

    /// A host on the cart tab, with `books > product` kept in the other tab.
    static func hostWithAKeptStack() async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: shop(#"{ id = "product" }"#))
        #expect(await host.route(.path(["root", "books", "product"])).isSuccess)
        #expect(await host.route(.path(["root", "cart"])).isSuccess)
        return host
    }

    /// Before, a screen gone from another tab's kept stack was dropped without a word.
    @Test func aScreenGoneFromAKeptStackIsReported() async throws {
        let host = try await Self.hostWithAKeptStack()
        let reloaded = try await host.reload(.source(Self.shop(#"{ id = "item" }"#), chunkName: "app.lua"))
        // It leaves as well (KeptStackDepartureTests); the active path, the cart, is untouched.
        #expect(texts(reloaded.left) == ["leave product"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "cart"])
        #expect(reloaded.changes == [.dropped("product", reason: "the rules have no such node (no migration covers it)")])
    }

    /// Before, a reload ignored the migrations a restore applies: a renamed screen was dropped.
    @Test func aDeclaredRenameKeepsTheScreenInAKeptStack() async throws {
        let host = try await Self.hostWithAKeptStack()
        let reloaded = try await host.reload(
            .source(Self.shop(#"{ id = "item" }"#, version: 2, rest: #"migrations = { [2] = { renamed = { product = "item" } } },"#), chunkName: "app.lua"))
        #expect(reloaded.changes == [.renamed("product", to: "item", version: 2)])
        // The kept stack holds `item` already: going there only switches the tab.
        guard case .success(let instructions) = await host.route(.path(["root", "books", "item"])) else {
            Issue.record("the route failed")
            return
        }
        #expect(texts(instructions) == ["switch root -> books"])
    }

    /// Before, a reload kept a path that the new rules' `max_depth` forbids.
    @Test func aPathPastALoweredDepthLimitIsCut() async throws {
        let host = try await PortolanHost.quiet(loading: Self.shop(#"{ id = "product", children = { { id = "reviews" } } }"#))
        #expect(await host.route(.path(["root", "books", "product", "reviews"])).isSuccess)
        let reloaded = try await host.reload(
            .source(Self.shop(#"{ id = "product", children = { { id = "reviews" } } }"#, rest: "max_depth = 3,"), chunkName: "app.lua"))
        #expect(await host.router?.activePath.map(\.id) == ["root", "books", "product"])
        #expect(texts(reloaded.left) == ["leave reviews"])
        #expect(reloaded.changes.count == 1, "\(reloaded.changes)")
    }

    /// A guard on `item` that sends the user to log in and sets the route aside.
    static let gated = """
        portolan.app { id = "root", children = {
          { id = "login" },
          { id = "shop", children = { { id = "item", guard = function()
              return portolan.redirect({ "root", "login" }, { resume = true }) end } } },
        } }
        """

    /// Before, a pending destination outlived the rules that named it: a reload forgets one that
    /// names a node the new rules no longer have, and says so, as a restore does.
    @Test func aPendingDestinationTheNewRulesCannotReachIsForgotten() async throws {
        let host = try await PortolanHost.quiet(loading: Self.gated)
        _ = await host.route(.path(["root", "shop", "item"]))
        #expect(await host.pendingDestination == .path(["root", "shop", "item"]))
        let smaller = #"portolan.app { id = "root", children = { { id = "login" }, { id = "shop" } } }"#
        let reloaded = try await host.reload(.source(smaller, chunkName: "app.lua"))
        #expect(await host.pendingDestination == nil)
        #expect(reloaded.changes.contains { if case .forgotten = $0 { true } else { false } }, "\(reloaded.changes)")
    }

    /// A pending destination a declared rename covers goes on under the new name.
    @Test func aPendingDestinationFollowsARename() async throws {
        let host = try await PortolanHost.quiet(loading: Self.gated)
        _ = await host.route(.path(["root", "shop", "item"]))
        let renamed = """
            portolan.app { id = "root", version = 2, migrations = { [2] = { renamed = { item = "product" } } },
              children = { { id = "login" }, { id = "shop", children = { { id = "product" } } } } }
            """
        _ = try await host.reload(.source(renamed, chunkName: "app.lua"))
        #expect(await host.pendingDestination == .path(["root", "shop", "product"]))
    }

    /// The shop, whose `product` and `reviews` note their `leave` and `enter` in the global `LOG`,
    /// each with the rules' `tag`: a global, which a failed reload does not put back as it puts
    /// back `portolan.state`.
    static func loggingShop(_ tag: String, below: String = #"children = { { id = "reviews", enter = note("enter reviews"), leave = note("leave reviews") } }"#) -> String {
        """
        LOG = LOG or {}
        local function note(what) return function() table.insert(LOG, what .. " by \(tag)") end end
        \(shop(#"{ id = "product", enter = note("enter product"), leave = note("leave product"), "# + below + " }"))
        """
    }

    /// Before, a screen the new rules took away from the active path went without its `leave`:
    /// now it leaves through the handler of the rules that entered it, bottom-up.
    @Test func aScreenTheNewRulesTakeAwayLeavesThroughTheOldRulesHandler() async throws {
        let host = try await PortolanHost.quiet(loading: Self.loggingShop("v1"))
        #expect(await host.route(.path(["root", "books", "product", "reviews"])).isSuccess)
        let reloaded = try await host.reload(.source(Self.loggingShop("v2", below: ""), chunkName: "app.lua"))
        #expect(texts(reloaded.left) == ["leave reviews"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "books", "product"])
        let log = try await host.evaluate("table.concat(LOG, ', ')")
        #expect(log == [#""enter product by v1, enter reviews by v1, leave reviews by v1""#])
    }

    /// A renamed screen stays: it neither leaves nor is entered again.
    @Test func aRenamedScreenStays() async throws {
        let host = try await PortolanHost.quiet(loading: Self.loggingShop("v1"))
        #expect(await host.route(.path(["root", "books", "product"])).isSuccess)
        let renamed = """
            portolan.app { id = "root", kind = "switch", active = "books", keep = true, version = 2,
              migrations = { [2] = { renamed = { product = "item" } } },
              children = { { id = "books", children = { { id = "item" } } }, { id = "cart" } } }
            """
        let reloaded = try await host.reload(.source(renamed, chunkName: "app.lua"))
        #expect(reloaded.left == [])
        #expect(await host.router?.activePath.map(\.id) == ["root", "books", "item"])
        #expect(try await host.evaluate("table.concat(LOG, ', ')") == [#""enter product by v1""#])
    }

    /// A `leave` that fails fails the reload: the previous rules stay, and the screens that had
    /// left before it come back through their `enter`.
    @Test func aLeaveThatFailsKeepsThePreviousRulesAndBringsBackWhatLeft() async throws {
        let failing = #"children = { { id = "reviews", enter = note("enter reviews"), leave = note("leave reviews") } }, leave = function() error("product cannot go") end"#
        let host = try await PortolanHost.quiet(loading: Self.loggingShop("v1", below: failing))
        #expect(await host.route(.path(["root", "books", "product", "reviews"])).isSuccess)
        let smaller = #"portolan.app { id = "root", kind = "switch", active = "cart", children = { { id = "books" }, { id = "cart" } } }"#
        do {
            _ = try await host.reload(.source(smaller, chunkName: "app.lua"))
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.message.contains("product cannot go"), "\(error.message)")
        }
        #expect(await host.router?.activePath.map(\.id) == ["root", "books", "product", "reviews"])
        let log = try await host.evaluate("table.concat(LOG, ', ')")
        #expect(log == [#""enter product by v1, enter reviews by v1, leave reviews by v1, enter reviews by v1""#])
    }
}

/// The rules in service are one value (`rulesInService`), of which `appFile` is a view (issue 32):
/// a reload of another file that fails leaves both naming the rules that stay.
@Suite struct RulesInServiceTests {
    @Test func aFailedReloadOfAnotherFileKeepsTheAppFileInService() async throws {
        let directory = try TemporaryDirectory("rules", files: [
            "app.lua": #"portolan.app { id = "root", children = { { id = "a" } } }"#,
            "broken.lua": "portolan.app {",
        ])
        defer { directory.remove() }
        let host = try await PortolanHost.quiet()
        try await host.loadApp(.file(directory.path("app.lua")))
        await #expect(throws: HostError.self) { try await host.reload(.file(directory.path("broken.lua"))) }
        #expect(await host.appFile == directory.path("app.lua"))
        // `reload()` reads the rules in service again, not the file that failed.
        _ = try await host.reload()
        #expect(await host.route(.path(["root", "a"])).isSuccess)
    }

    @Test func rulesGivenAsTextHaveNoAppFile() async throws {
        let host = try await PortolanHost.quiet(loading: #"portolan.app { id = "root" }"#)
        #expect(await host.appFile == nil)
        #expect(await host.rules == .source(#"portolan.app { id = "root" }"#, chunkName: "app.lua"))
    }

    /// One way to load rules and one to change them: `reload()` runs the rules in service again,
    /// whatever they came from. Before, rules given as text could not be reloaded ("no app file
    /// to reload"), and the REPL reloaded its demo app by restating its text.
    @Test func reloadRunsRulesGivenAsTextAgain() async throws {
        let host = try await PortolanHost.quiet(loading: "loads = (loads or 0) + 1\n" + #"portolan.app { id = "root" }"#)
        _ = try await host.reload()
        #expect(try await host.evaluate("loads") == ["2"])
    }

    /// Other rules from another directory: their directory becomes the app's, and the files of the
    /// rules replaced are no longer the app's, whichever way the rules change (a reload, a swap).
    @Test func rulesFromAnotherDirectoryBringTheirOwnFiles() async throws {
        let first = try TemporaryDirectory("first", files: ["app.lua": #"portolan.app { id = "root" }"#])
        let second = try TemporaryDirectory("second", files: [
            "app.lua": #"local screens = require("screens"); portolan.app { id = "root", children = screens }"#,
            "screens.lua": #"return { { id = "b" } }"#,
        ])
        defer { first.remove(); second.remove() }
        let host = try await PortolanHost.quiet()
        try await host.loadApp(.file(first.path("app.lua")))
        _ = try await host.reload(.file(second.path("app.lua")))
        #expect(await host.appFiles == [second.path("app.lua"), second.path("screens.lua")])
        #expect(await host.rules == .file(second.path("app.lua")))
    }
}
