import Foundation
import Portolan
import TestSupport
import PortolanLua
@testable import PortolanTools
import Testing

/// The REPL's logic, fed line by line, without a terminal.
@Suite struct ReplSessionTests {
    /// A session on the built-in demo app and everything it printed.
    struct Fixture {
        let session: ReplSession
        let output: Locked<[String]>

        init(app: String? = nil) async throws {
            let output = Locked<[String]>([])
            self.output = output
            session = try await ReplSession.start(appFile: app, output: { line in output.withLock { $0.append(line) } })
        }

        /// Feeds lines and returns what they printed.
        @discardableResult
        func feed(_ lines: String...) async -> [String] {
            output.withLock { $0 = [] }
            for line in lines {
                await session.handle(line)
            }
            return output.value
        }
    }

    @Test func embeddedDemoAppIsTheExampleFile() throws {
        let file = try String(contentsOfFile: Repository.path("Examples/movies/app.lua"), encoding: .utf8)
        #expect(DemoApp.source == file, "the embedded demo must be Examples/movies/app.lua (Sources/PortolanTools/REPL/DemoApp.lua links to it)")
    }

    @Test func expressionsArePrintedTabSeparated() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed("1 + 1, 'two', nil") == ["2\t\"two\"\tnil"])
        #expect(await repl.feed("portolan.active_path()") == [#"{ "root", "onboarding" }"#])
        #expect(await repl.feed("x = 5", "x * 2") == ["10"])
    }

    @Test func statementsContinueOverLinesAsInLuaC() async throws {
        let repl = try await Fixture()
        #expect(await repl.session.prompt == ReplSession.mainPrompt)
        #expect(await repl.session.handle("function double(x)") == .continuing)
        #expect(await repl.session.prompt == ReplSession.continuationPrompt)
        #expect(await repl.session.handle("  return x * 2") == .continuing)
        #expect(await repl.session.handle("end") == .ready)
        #expect(await repl.session.prompt == ReplSession.mainPrompt)
        #expect(await repl.feed("double(21)") == ["42"])
        // An expression left open continues as well, and a line that starts with `/` is then Lua.
        #expect(await repl.feed("(10", "/ 2)") == ["5.0"])
    }

    @Test func cancellingInputDropsThePendingChunk() async throws {
        let repl = try await Fixture()
        #expect(await repl.session.handle("if true then") == .continuing)
        await repl.session.cancelInput()
        #expect(await repl.session.prompt == ReplSession.mainPrompt)
        #expect(await repl.feed("1") == ["1"])
    }

    @Test func errorsShowTheirLineAndTheSessionGoesOn() async throws {
        let repl = try await Fixture()
        // Each line is its own chunk, as in lua.c: a local does not outlive its line.
        #expect(await repl.feed("local n = 1", "n + 1") == ["error: stdin:1: attempt to perform arithmetic on a nil value (global 'n')"])
        #expect(await repl.feed("x = = 1") == ["error: stdin:1: unexpected symbol near '='"])
        #expect(await repl.feed("t = {}", "t.a.b = 1") == ["error: stdin:1: attempt to index a nil value (field 'a')"])
        #expect(await repl.feed("function f()", "  error('boom')", "end", "f()") == ["error: stdin:2: boom"])
        #expect(await repl.feed("1 + 1") == ["2"])
    }

    @Test func slashRoutesPrintInstructionsAndTheActivePath() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed("/root/onboarding/onboarding_login") == [
            "push Login  [enter onboarding_login]",
            "  enter onboarding_login",
            "active: root > onboarding > onboarding_login",
        ])
        #expect(await repl.feed("/root/onboarding/onboarding_login") == [
            "(nothing to do)",
            "active: root > onboarding > onboarding_login",
        ])
        await repl.feed("login()")
        #expect(await repl.feed("/root/dashboard/watched/") == [
            "pop Login  [leave onboarding_login]",
            "replace the window's root with dashboard  [switch root -> dashboard]",
            "select tab watched  [switch dashboard -> watched]",
            "  leave onboarding_login",
            "  switch root -> dashboard",
            "  switch dashboard -> watched",
            "active: root > dashboard > watched",
        ])
    }

    @Test func slashRoutesTakeAContext() async throws {
        let repl = try await Fixture()
        await repl.feed("login()")
        let lines = await repl.feed("/root/dashboard/wishlist/wishlist_movie{id=42}")
        #expect(lines.suffix(2) == [
            "  enter wishlist_movie {id=42}",
            "active: root > dashboard > wishlist > wishlist_movie {id=42}",
        ])
    }

    @Test func redirectsAndRoutesQueuedByHandlersAreShown() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed("/root/dashboard") == [
            "redirected to root > onboarding",
            "(nothing to do)",
            "active: root > onboarding",
        ])
        let lines = await repl.feed("/root/onboarding/onboarding_login{remembered=true}")
        #expect(lines.contains("then, queued meanwhile: root > dashboard"))
        #expect(lines.last == "active: root > dashboard > wishlist")
    }

    @Test func failedRoutesShowTheFailureAndTheSessionGoesOn() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed("/root/nowhere") == [
            "failed: unreachable: no node 'nowhere' is declared",
            "active: root > onboarding",
        ])
        await repl.feed("login()", "/root/dashboard/wishlist")
        // A handler that refuses: what ran before it is shown, then undone, step by step.
        #expect(await repl.feed("/root/dashboard/watched/watched_movie") == [
            "select tab watched  [switch dashboard -> watched]",
            "select tab wishlist  [switch dashboard -> wishlist]",
            "  switch dashboard -> watched",
            #"failed: handler_failed at enter watched_movie: a movie screen needs a movie id, e.g. { id = "watched_movie", context = { id = 42 } } (after 1 instruction)"#,
            "  rolled back: switch dashboard -> wishlist",
            "active: root > dashboard > wishlist",
        ])
        // A handler that raises names its file and line.
        await repl.feed("portolan.state.cast_service_down = true", "/root/dashboard/watched/watched_movie{id=1}")
        let cast = await repl.feed("/root/dashboard/watched/watched_movie{id=1}/watched_cast{id=2}")
        #expect(cast.first?.hasPrefix("failed: handler_failed at enter watched_cast {id=2}: ") == true)
        #expect(cast.first?.contains("Examples/movies/app.lua:") == true)
        #expect(cast.first?.contains("cast service unavailable") == true)
        // A line that starts with the root's id and matches no route is an id path, errors included.
        #expect(await repl.feed("/root//x") == ["error: an id path has an empty id (two slashes in a row?)"])
        #expect(await repl.feed("portolan.active_path()") == [#"{ "root", "dashboard", "watched", "watched_movie" }"#])
    }

    @Test func backTakesACountOfScreens() async throws {
        let repl = try await Fixture()
        await repl.feed("login()", "/root/dashboard/wishlist/wishlist_movie{id=42}/wishlist_cast{id=7}")
        let back = await repl.feed(":back 2")
        #expect(["leave wishlist_cast {id=7}", "leave wishlist_movie {id=42}"].allSatisfy { left in back.contains { $0.contains(left) } })
        #expect(back.last == "active: root > dashboard > wishlist")
        #expect(await repl.feed(":back two") == ["error: usage: :back [N], N a whole number of screens from 1, not 'two'"])
        #expect(await repl.feed(":back 0").first?.hasPrefix("error: usage: :back [N]") == true)
    }

    @Test func planShowsWhatARouteWouldDoWithoutDoingIt() async throws {
        let repl = try await Fixture()
        await repl.feed("login()")
        let expected = [
            "  switch root -> dashboard",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > onboarding",
        ]
        #expect(await repl.feed(":plan /root/dashboard") == expected)
        #expect(await repl.feed(#":plan {"root", "dashboard"}"#) == expected)
        #expect(await repl.feed(":plan {'root', {id = 'onboarding'}}") == ["(nothing to do)", "(plan only: nothing ran, the tree is unchanged)", "active: root > onboarding"])
        #expect(await repl.feed(":plan 'settings'") == ["  enter settings", "(plan only: nothing ran, the tree is unchanged)", "active: root > onboarding"])
        #expect(await repl.feed(":plan /root/nowhere") == [
            "failed: unreachable: no node 'nowhere' is declared",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > onboarding",
        ])
        // Destinations of the wrong type, and expressions that do not parse.
        #expect(await repl.feed(":plan 42") == [
            "failed: invalid: a destination is a list of ids or entries from the root, or the id or entry of an anywhere node; got a number",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > onboarding",
        ])
        #expect(await repl.feed(":plan {'root',") == ["error: plan:1: unexpected symbol near <eof>"])
        #expect(await repl.feed(":plan") == [#"error: :plan needs a destination, as in :plan /wishlist or :plan {"root", "dashboard"}"#])
        #expect(await repl.feed("portolan.active_path()") == [#"{ "root", "onboarding" }"#])
        // The tree is untouched indeed: routing there now does what the plan said.
        #expect(await repl.feed("/root/dashboard").contains("  switch root -> dashboard"))
    }

    @Test func urlLinesRouteAsTheirPatternSays() async throws {
        let repl = try await Fixture()
        // Logged out: the dashboard's guard sends the link to the welcome screen.
        #expect(await repl.feed("/wishlist/movies/42") == [
            "matched /wishlist/movies/:id<int> (wishlist_movie)",
            "redirected to root > onboarding",
            "(nothing to do)",
            "active: root > onboarding",
        ])
        #expect(await repl.feed("pending_link") == [#""/wishlist/movies/42""#])
        await repl.feed("login()")
        #expect(await repl.feed("/wishlist/movies/42?ref=mail#trailer") == [
            "matched /wishlist/movies/:id<int> (wishlist_movie)",
            "replace the window's root with dashboard  [switch root -> dashboard]",
            "show MovieDetail 42 in wishlist  [enter wishlist_movie {id=42}]",
            "  switch root -> dashboard",
            "  enter wishlist_movie {id=42}",
            "active: root > dashboard > wishlist > wishlist_movie {id=42}",
        ])
        // Query and fragment reached the handler.
        #expect(await repl.feed("last_link.ref, last_link.section") == ["\"mail\"\t\"trailer\""])
        // A cast link: the movie takes its id from its own pattern.
        // The tab bar keeps the wishlist's stack: nothing there is left.
        #expect(await repl.feed("/watched/movies/1/cast/2").suffix(4) == [
            "  switch dashboard -> watched",
            "  enter watched_movie {id=1}",
            "  enter watched_cast {id=2,movie=1}",
            "active: root > dashboard > watched > watched_movie {id=1} > watched_cast {id=2,movie=1}",
        ])
    }

    @Test func customSchemeLinksAndRedirectRules() async throws {
        let repl = try await Fixture()
        await repl.feed("login()", "/wishlist")
        #expect(await repl.feed("myapp://movie/7") == [
            "matched myapp://movie/:id<int> (wishlist_movie)",
            "show MovieDetail 7 in wishlist  [enter wishlist_movie {id=7}]",
            "  enter wishlist_movie {id=7}",
            "active: root > dashboard > wishlist > wishlist_movie {id=7}",
        ])
        // The app's pattern rule, then a function rule added at the prompt: both apply, as from Lua.
        #expect(await repl.feed("/films/5").prefix(2) == [
            "rewritten to /wishlist/movies/5 by the redirect rules",
            "matched /wishlist/movies/:id<int> (wishlist_movie)",
        ])
        await repl.feed(#"portolan.redirect_rule(function(url) if url == "/fav" then return "/films/8" end end)"#)
        #expect(await repl.feed(":plan /fav") == [
            "rewritten to /wishlist/movies/8 by the redirect rules",
            "matched /wishlist/movies/:id<int> (wishlist_movie)",
            "  leave wishlist_movie {id=5}",
            "  enter wishlist_movie {id=8}",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > dashboard > wishlist > wishlist_movie {id=5}",
        ])
        // A rule that raises fails the route (kind invalid) with its message, and nothing moves.
        await repl.feed(#"portolan.redirect_rule(function(url) if url == "/bad" then return 42 end end)"#)
        #expect(await repl.feed("/bad") == [
            "failed: invalid: a redirect rule returned a number; return a URL string or nothing",
            "active: root > dashboard > wishlist > wishlist_movie {id=5}",
        ])
        #expect(await repl.feed("portolan.active_path()") == [#"{ "root", "dashboard", "wishlist", "wishlist_movie" }"#])
    }

    @Test func idPathsAreTheFallbackWhenNoPatternMatches() async throws {
        let repl = try await Fixture()
        await repl.feed("login()")
        // No "matched" line: no pattern leads to /root/..., so these are ids from the root.
        #expect(await repl.feed("/root/dashboard/watched") == [
            "replace the window's root with dashboard  [switch root -> dashboard]",
            "select tab watched  [switch dashboard -> watched]",
            "  switch root -> dashboard",
            "  switch dashboard -> watched",
            "active: root > dashboard > watched",
        ])
        #expect(await repl.feed(":plan /root/dashboard/wishlist") == [
            "  switch dashboard -> wishlist",
            "(plan only: nothing ran, the tree is unchanged)",
            "active: root > dashboard > watched",
        ])
        // A node without a route is reached by ids.
        #expect(await repl.feed("/root/dashboard/watched/settings/about") == [
            "present Settings  [enter settings]",
            "push About  [enter about]",
            "  enter settings",
            "  enter about",
            "active: root > dashboard > watched > settings > about",
        ])
    }

    @Test func malformedAndUnknownURLsFailWithoutMoving() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed("/wishlist/movies/%zz") == [
            "failed: invalid: malformed URL '/wishlist/movies/%zz': invalid percent escape at offset 17: '%' must be followed by two hex digits",
            "active: root > onboarding",
        ])
        #expect(await repl.feed("/nowhere") == [
            "failed: unreachable: no route matches '/nowhere'",
            "active: root > onboarding",
        ])
        #expect(await repl.feed("myapp://nowhere/1") == [
            "failed: unreachable: no route matches 'myapp://nowhere/1'",
            "active: root > onboarding",
        ])
        // About lives inside settings: it has no link of its own.
        #expect(await repl.feed(":plan /settings/about") == [
            "failed: unreachable: no route matches '/settings/about'",
            "active: root > onboarding",
        ])
        // The line reaches Lua as typed, quotes and backslashes included.
        #expect(await repl.feed(#"/a"b\c"#) == [
            #"failed: unreachable: no route matches '/a"b\c'"#,
            "active: root > onboarding",
        ])
        #expect(await repl.feed(#":plan "/nowhere""#) == [
            "failed: unreachable: no route matches '/nowhere'",
            "active: root > onboarding",
        ])
    }

    @Test func treeShowsTheLiveTree() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed(":tree") == ["""
            root [switch] *
            ├─ onboarding *
            └─ dashboard [switch]
               ├─ wishlist ·
               └─ watched
            """, "(* the active path; · what a switch node off it shows when you switch back to it)"])
    }

    @Test func shortcutsHelpQuitAndUnknownCommands() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed(":help").first?.contains(":plan DEST") == true)
        #expect(await repl.feed(":frobnicate now") == ["error: unknown command ':frobnicate'; :help lists the commands"])
        #expect(await repl.session.handle(":quit") == .quit)
        #expect(await repl.session.handle(":q") == .quit)
        #expect(await repl.feed("", "   ") == [])
    }

    @Test func inputIsParsedIntoShortcutsOnlyAtTheStartOfAChunk() {
        #expect(ReplInput(line: "  :plan  /root/a ") == .plan("/root/a"))
        #expect(ReplInput(line: ":tree") == .tree)
        #expect(ReplInput(line: "::top::") == .lua("::top::"))
        #expect(ReplInput(line: "/root/a") == .route("/root/a"))
        #expect(ReplInput(line: " myapp://movie/1?ref=x ") == .route("myapp://movie/1?ref=x"))
        #expect(ReplInput(line: "https://example.com") == .route("https://example.com"))
        #expect(ReplInput(line: #"portolan.route "myapp://movie/1""#) == .lua(#"portolan.route "myapp://movie/1""#))
        #expect(ReplInput(line: "1://x") == .lua("1://x"))
        #expect(ReplInput(line: "print(1)") == .lua("print(1)"))
    }

    @Test func idPathsParseIdsAndContexts() throws {
        #expect(try IdPath.entries("/root/tabs/wishlist") == [Entry("root"), Entry("tabs"), Entry("wishlist")])
        #expect(try IdPath.entries("/root/") == [Entry("root")])
        #expect(try IdPath.entries(#"/a/book{id=42, lang=en, new=true, score=1.5, code="7", path="x/y"}"#) == [
            Entry("a"),
            Entry("book", context: [
                "id": .integer(42), "lang": .string("en"), "new": .boolean(true), "score": .number(1.5),
                "code": .string("7"), "path": .string("x/y"),
            ]),
        ])
        #expect(throws: IdPath.ParseError.self) { try IdPath.entries("root/a") }
        #expect(throws: IdPath.ParseError.self) { try IdPath.entries("/a/b{id=1") }
        #expect(throws: IdPath.ParseError.self) { try IdPath.entries("/a/b{id}") }
        #expect(throws: IdPath.ParseError.self) { try IdPath.entries("/a b/c") }
    }

    @Test(.timeLimit(.minutes(10))) func interruptStopsAnEndlessChunk() async throws {
        let repl = try await Fixture()
        let host = repl.session.host
        let done = Locked(false)
        // A request made before the chunk starts is dropped, so keep asking until it has stopped.
        let interrupter = Task {
            try await Task.sleep(for: .milliseconds(100))
            while !done.value {
                host.interruption.request()
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let lines = await repl.feed("while true do end")
        done.withLock { $0 = true }
        try await interrupter.value
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.first?.hasSuffix("interrupted") == true)
        #expect(await repl.feed("1 + 1") == ["2"])
    }

    @Test func appsWithErrorsDoNotStart() async throws {
        let directory = try TemporaryDirectory("repl", files: ["broken.lua": "portolan.app {\n  id = 'root',\n  children = { { id = 'a' }\n"])
        defer { directory.remove() }
        let path = directory.path("broken.lua")
        await #expect {
            _ = try await Fixture(app: path)
        } throws: { error in
            (error as? HostError)?.message.hasPrefix("\(path):4:") == true
        }
    }

    @Test func anAppFileIsLoadedWithItsOwnModules() async throws {
        let directory = try TemporaryDirectory("repl", files: [
            "helpers.lua": "return { name = 'tiny' }",
            "app.lua": """
                local helpers = require "helpers"
                app_name = helpers.name
                portolan.app { id = "root", children = { { id = "a" } } }
                """,
        ])
        defer { directory.remove() }
        let repl = try await Fixture(app: directory.path("app.lua"))
        #expect(await repl.feed("app_name") == [#""tiny""#])
        #expect(await repl.feed("/root/a") == ["  enter a", "active: root > a"])
    }
}
