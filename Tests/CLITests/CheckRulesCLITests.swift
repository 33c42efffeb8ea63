import Foundation
import Testing
import TestSupport

/// `portolan check` on the README's own forms (issue 25, §2): redirects with options, bad option
/// values, guards that redirect into themselves, `--strict`, and web schemes beside `hosts`; end to
/// end through the built binary.
@Suite struct CheckRulesCLITests {
    private static func check(_ app: String, _ options: [String] = []) async throws -> PortolanBinary.Run {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": app])
        defer { directory.remove() }
        return try await PortolanBinary.run(["check"] + options + ["app.lua"], in: directory)
    }

    private static func lines(_ run: PortolanBinary.Run) -> [String] {
        run.stdout.split(separator: "\n").map(String.init)
    }

    /// Issue 25: the README's login-guard form, with `{ resume = true }`, was not checked.
    @Test func anUnknownNodeInARedirectWithOptionsIsFlagged() async throws {
        let run = try await Self.check("""
            portolan.app { id = "root", children = {
              { id = "login" },
              { id = "account", guard = function()
                if not logged_in then return portolan.redirect({ "root", "lgoin" }, { resume = true }) end
              end } } }
            """)
        #expect(run.status == 1)
        #expect(Self.lines(run) == [
            "app.lua:4: error: redirect names 'lgoin': no node 'lgoin' is declared (did you mean 'login'?) [unknown-node-in-redirect]",
            "1 error, 0 warnings",
        ], "\(run.stdout)")
    }

    /// Issue 25: `back = "histroy"` and `queue = "latest-wins"` were one finding at `portolan.app {`,
    /// named `portolan check:18:`, without the value, and hid the rest.
    @Test func badOptionValuesAreEachReportedAtTheirLineWithWhatTheyMayBe() async throws {
        let run = try await Self.check("""
            portolan.app {
              id = "root", kind = "switch", active = "home",
              queue = "latest-wins",
              max_redirects = 2000,
              children = {
                { id = "home", route = "/" },
                { id = "tabs", kind = "switch", back = "histroy",
                  children = { { id = "feed", launch = "pop" } } },
                { id = "home" },
              },
            }
            """)
        #expect(run.status == 1)
        #expect(Self.lines(run) == [
            #"app.lua:3: error: queue must be "fifo" or "latest_wins", not "latest-wins" [invalid-option]"#,
            "app.lua:4: error: max_redirects must be a whole number from 0 to 1000, not 2000 [invalid-option]",
            #"app.lua:7: error: 'tabs': back must be "first", "initial", "order", "history", "full_history" or "none", not "histroy" [invalid-option]"#,
            #"app.lua:8: error: 'feed': launch must be "push", "push_new", "single_top", "clear_top", "pop_to", "pop_to_or_push", "single_task", "replace", "bring_to_front", "reorder_to_front" or "singular", not "pop" [invalid-option]"#,
            "app.lua:9: error: duplicate id 'home' (first declared at line 6) [duplicate-id]",
            "5 errors, 0 warnings",
        ], "\(run.stdout)")
        #expect(!run.stdout.contains("portolan check:"))
    }

    /// A launch mode in a push's options is checked at its line too, whatever the entry is.
    @Test func aPushsUnknownLaunchModeIsReportedAtItsLine() async throws {
        let run = try await Self.check("""
            portolan.app { id = "root", children = { { id = "a", push = { "a" } } } }
            local function a(n) return { id = "a", context = { n = n } } end
            function open(n)
              portolan.push(a(n), { launch = "pop_to" })
              portolan.push(a(n + 1), { launch = "bring_to_the_front" })
              return portolan.push("a", { launch = "single_task", pop_up_to = "a" })
            end
            function again(n) return portolan.route { push = a(n), launch = "bring_to_the_front" } end
            function ok(n) return portolan.route { launch = "pop_to", push = a(n) } end
            """)
        #expect(run.status == 1)
        #expect(Self.lines(run) == [
            #"app.lua:5: error: portolan.push: launch must be "push", "push_new", "single_top", "clear_top", "pop_to", "pop_to_or_push", "single_task", "replace", "bring_to_front", "reorder_to_front" or "singular", not "bring_to_the_front" [invalid-option]"#,
            #"app.lua:8: error: { push = … }: launch must be "push", "push_new", "single_top", "clear_top", "pop_to", "pop_to_or_push", "single_task", "replace", "bring_to_front", "reorder_to_front" or "singular", not "bring_to_the_front" [invalid-option]"#,
            "2 errors, 0 warnings",
        ], "\(run.stdout)")
    }

    @Test func aKeyThatIsNoFieldNameIsReportedAtItsLine() async throws {
        let run = try await Self.check("""
            portolan.app { id = "root", children = {
              { id = "a", key = 5 },
            } }
            """)
        #expect(run.status == 1)
        #expect(Self.lines(run).first == "app.lua:2: error: 'a': key must be a context field's name or a list of them, not 5 [invalid-option]",
                "\(run.stdout)")
    }

    /// A refusal no lint explains is still reported, without the prelude's place in it.
    @Test func aRefusalNoLintExplainsNamesNoInternalChunk() async throws {
        let run = try await Self.check("portolan.app { id = \"root\", children = { { id = \"a\", push = { \"nowhere\" } } } }\n")
        #expect(run.status == 1)
        #expect(Self.lines(run).first == "app.lua:1: error: portolan.app refused the graph: 'a' pushes 'nowhere', which is not declared [load-error]",
                "\(run.stdout)")
    }

    /// Issue 35, §1: the linter reads the root's options as `portolan.app` does (`AppOptions`), so a
    /// migration or `explore` that is wrong is reported at its own line, beside the other mistakes.
    @Test func rootOptionsAreReadAsTheAppReadsThemEachAtItsLine() async throws {
        let run = try await Self.check("""
            portolan.app { id = "root",
              migrations = 5,
              explore = { states = {} },
              queue = "latest-wins",
              children = { { id = "a" } } }

            """)
        #expect(run.status == 1)
        #expect(Self.lines(run).prefix(3) == [
            "app.lua:2: error: migrations must be a table keyed by version [invalid-option]",
            "app.lua:3: error: explore has no field states (state, contexts, payloads, urls, back, unreachable) [invalid-option]",
            #"app.lua:4: error: queue must be "fifo" or "latest_wins", not "latest-wins" [invalid-option]"#,
        ], "\(run.stdout)")
    }

    /// Issue 25: only a guard that always redirects was caught; one that can, into its own node or
    /// below, ended its route in a redirect loop. Since issue 35 that redirect settles (a redirect to
    /// where the route goes lets it through), so the guard lets the user in past its own check.
    @Test func aGuardThatCanRedirectIntoItsOwnNodeIsFlagged() async throws {
        let run = try await Self.check("""
            portolan.app { id = "root", children = {
              { id = "home" },
              { id = "account", route = "/account",
                guard = function(node, request)
                  if not logged_in then return portolan.redirect "/account" end
                  if request.context.stale then return portolan.redirect { "root", "account", "orders" } end
                  if not request:goes_to("profile") then return portolan.redirect { "root", "account", "profile" } end
                  if request.context.away then return portolan.redirect { "root", "home" } end
                end,
                children = { { id = "orders" }, { id = "profile" } } } } }
            """)
        #expect(run.status == 0)
        let loop = "that route meets the same guard, whose redirect to where the route already goes lets it through, "
            + "past the guard's check; redirect outside 'account' [redirect-into-guard]"
        #expect(Self.lines(run) == [
            "app.lua:5: warning: the guard of 'account' can redirect to 'account' itself: " + loop,
            "app.lua:6: warning: the guard of 'account' can redirect to 'orders', below it: " + loop,
            "0 errors, 2 warnings",
        ], "\(run.stdout)")
    }

    /// Issue 25: CI could not stop a misspelt `keep`, which is a warning.
    @Test func strictMakesWarningsFail() async throws {
        let app = """
            portolan.app { id = "root", children = {
              { id = "tabs", kind = "switch", kepp = true, children = { { id = "a" }, { id = "b" } } } } }
            """
        let lenient = try await Self.check(app)
        #expect(lenient.status == 0)
        #expect(lenient.lastLine == "0 errors, 1 warning")
        let strict = try await Self.check(app, ["--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("did you mean 'keep'?"))
        let clean = try await Self.check("portolan.app { id = \"root\", children = { { id = \"a\" } } }\n", ["--strict"])
        #expect(clean.status == 0)
    }

    /// Issue 25: `schemes = { "shop", "https" }` with `hosts` accepted https links from every host.
    @Test func webSchemesAreReportedAndHostsBoundThem() async throws {
        let open = try await Self.check("""
            portolan.app { id = "root", schemes = { "shop", "https" },
              children = { { id = "p", route = "/p/:id" } } }
            """)
        #expect(Self.lines(open).first?.hasPrefix(
            "app.lua:1: warning: schemes lists 'https', which admits https links from every host") == true, "\(open.stdout)")
        let bounded = """
            portolan.app { id = "root", schemes = { "shop", "https" }, hosts = { "shop.example" },
              children = { { id = "p", route = "/p/:id" } } }
            """
        let lint = try await Self.check(bounded)
        #expect(Self.lines(lint).first?.hasPrefix("app.lua:1: warning: schemes lists 'https', which adds nothing: with hosts given") == true,
                "\(lint.stdout)")
        let scenario = """
            scenario("hosts bound https", function()
              local _, foreign = portolan.route "https://evil.example/p/1"
              expect_match(foreign, { kind = "unreachable" })
              expect(select(2, portolan.route "https://shop.example/p/1"), nil)
              expect(select(2, portolan.route "shop://p/2"), nil)
            end)
            """
        let directory = try TemporaryDirectory("cli", files: ["app.lua": bounded, "s.lua": scenario])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 0, "\(run.stdout)")
    }
}
