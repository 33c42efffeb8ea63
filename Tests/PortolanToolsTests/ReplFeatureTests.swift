import Foundation
import Portolan
import TestSupport
import PortolanLua
@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// Completion, :back, :history, :events, :graph, :reload, --watch, :record (replayed by the
/// scenario runner) and colours, on the session without a terminal.
@Suite struct ReplFeatureTests {
    typealias Fixture = ReplSessionTests.Fixture

    // MARK: Completion

    @Test func completesLuaGlobalsAndFieldsWithoutRunningMetamethods() async throws {
        let repl = try await Fixture()
        #expect(await repl.session.complete("portolan.ro") == ReplCompletion(word: "ro", candidates: ["route"]))
        #expect(await repl.session.complete("x = string.fo") == ReplCompletion(word: "fo", candidates: ["format"]))
        #expect(await repl.session.complete("log").candidates == ["login", "logout"])
        #expect(await repl.session.complete("portolan.state.log").candidates == ["logged_in"])
        #expect(await repl.session.complete("whi").candidates == ["while"])
        #expect(await repl.session.complete("print(math.pi").candidates == ["pi"])
        // Nothing of the REPL's own helpers shows, and a table's metamethods never run.
        #expect(await repl.session.complete("__portolan").candidates == [])
        await repl.feed("trap = setmetatable({ own = 1 }, { __index = function() error('ran') end, __pairs = function() error('ran') end })")
        #expect(await repl.session.complete("trap.").candidates == ["own"])
        await repl.feed("class = { speak = true }", "obj = setmetatable({ name = 1 }, { __index = class })")
        #expect(await repl.session.complete("obj:").candidates == ["name", "speak"])
        #expect(await repl.session.complete("nothing.here.").candidates == [])
        #expect(await repl.session.complete("1.5").candidates == [])
    }

    @Test func completesCommandsURLsIdPathsAndIdsInStrings() async throws {
        let repl = try await Fixture()
        #expect(await repl.session.complete(":re").candidates == [":record", ":reload", ":restore"])
        #expect(await repl.session.complete(":gr").candidates == [":graph"])
        #expect(await repl.session.complete(":graph s").candidates == ["svg"])
        #expect(await repl.session.complete(":events o").candidates == ["off", "on"])
        #expect(await repl.session.complete("/wish").candidates == ["/wishlist", "/wishlist/"])
        #expect(await repl.session.complete("/wishlist/mo").candidates == ["/wishlist/movies/"])
        #expect(await repl.session.complete("/watched/movies/7/c").candidates == ["/watched/movies/7/cast/"])
        #expect(await repl.session.complete("myapp://mo").candidates == ["myapp://movie/"])
        #expect(await repl.session.complete("/ro").candidates == ["/root"])
        #expect(await repl.session.complete("/root/dash").candidates == ["/root/dashboard"])
        #expect(await repl.session.complete("/root/dashboard/w").candidates == ["/root/dashboard/watched", "/root/dashboard/wishlist"])
        #expect(await repl.session.complete(":plan /root/o").candidates == ["/root/onboarding"])
        #expect(await repl.session.complete("portolan.route { 'root', \"dash").candidates == ["dashboard"])
        #expect(await repl.session.complete("portolan.route '/wishlist/m").candidates == ["/wishlist/movies/"])
        // Inside a chunk that continues, a line is Lua.
        await repl.feed("if true then")
        #expect(await repl.session.complete("/ro").candidates == ["route_log"])   // a division
        #expect(await repl.session.complete(":re").candidates == [])
    }

    /// Issue 25, §3: no offer that then fails to route, and links of any scheme the app accepts.
    @Test func completionOffersOnlyIdsThatMayStandThereAndCompletesAfterASchemeAndHost() async throws {
        let repl = try await Fixture()
        // settings and alert are reachable from anywhere, on top of a screen: never below a switch node.
        #expect(await repl.session.complete("/root/dashboard/").candidates == ["/root/dashboard/watched", "/root/dashboard/wishlist"])
        #expect(await repl.session.complete("/root/onboarding/").candidates
            == ["/root/onboarding/alert", "/root/onboarding/onboarding_login", "/root/onboarding/settings"])
        #expect(await repl.session.complete("/root/settings/").candidates == [], "a path that breaks the rule leads nowhere")
        // The demo lists no origins, so every scheme reaches its patterns.
        #expect(await repl.session.complete("myapp://wi").candidates == ["myapp://wishlist", "myapp://wishlist/"])
        #expect(await repl.session.complete("https://movies.example.com/wa").candidates
            == ["https://movies.example.com/watched", "https://movies.example.com/watched/"])
    }

    @Test func commonPrefixOfCandidates() {
        #expect(ReplCompletion(word: "l", candidates: ["login", "logout", "logged_in"]).commonPrefix == "log")
        #expect(ReplCompletion(word: "", candidates: []).commonPrefix == "")
    }

    // MARK: Commands

    @Test func backLeavesTheTopUnmanagedNode() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed(":back").first?.hasPrefix("failed: unreachable: nothing to go back from") == true)
        await repl.feed("login()", "/wishlist/movies/42/cast/3")
        #expect(await repl.feed(":back").suffix(2) == [
            "  leave wishlist_cast {id=3,movie=42}",
            "active: root > dashboard > wishlist > wishlist_movie {id=42}",
        ])
        #expect(await repl.feed(":back").suffix(2) == ["  leave wishlist_movie {id=42}", "active: root > dashboard > wishlist"])
        #expect(await repl.feed(":back").first?.hasPrefix("failed: unreachable: nothing to go back from") == true)
    }

    @Test func historyListsTheSessionsRoutesWithTheirResults() async throws {
        let repl = try await Fixture()
        #expect(await repl.feed(":history") == ["(no routes yet)"])
        await repl.feed("/root/nowhere", "login()", "portolan.route '/watched'", ":plan /wishlist")
        // The router's history (portolan.history()): routes, not plans.
        #expect(await repl.feed(":history") == [
            "1  root > nowhere",
            "   failed: unreachable: no node 'nowhere' is declared",
            "2  root > dashboard > watched",
            "     switch root -> dashboard",
            "     switch dashboard -> watched",
        ])
    }

    @Test func eventsAreShownWhileOn() async throws {
        let repl = try await Fixture()
        await repl.feed(":events on", "login()")
        #expect(await repl.feed("/root/dashboard") == [
            "· will_route root > dashboard",
            "replace the window's root with dashboard  [switch root -> dashboard]",
            "· switch root -> dashboard",
            "· did_route root > dashboard (1 instruction)",
            "  switch root -> dashboard",
            "active: root > dashboard > wishlist",
        ])
        await repl.feed(":events off")
        #expect(await repl.feed("/root/onboarding").contains { $0.hasPrefix("·") } == false)
        #expect(await repl.feed(":events maybe") == ["error: :events takes on or off"])
    }

    @Test func graphDrawsTheLiveTreeToTheScreenOrAFile() async throws {
        let repl = try await Fixture()
        let text = await repl.feed(":graph")
        #expect(text.count == 1)
        #expect(text.first?.contains("onboarding") == true)
        let directory = try TemporaryDirectory("repl")
        defer { directory.remove() }
        let file = directory.path("graph.svg")
        #expect(await repl.feed(":graph svg \(file)") == ["wrote the live tree as svg to \(file)"])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("<svg"))
        #expect(await repl.feed(":graph mermaid").first?.contains("onboarding") == true)
        #expect(await repl.feed(":graph svg a b").first?.hasPrefix("error: :graph takes") == true)
        // A word that is no format is an error naming the formats, never the name of a file.
        #expect(await repl.feed(":graph bogus") == [
            "error: :graph: unknown format 'bogus'; the formats are text, dot, mermaid, json, svg (:graph svg tree.svg writes a file)"
        ])
        let name = "graph-\(UUID()).svg"
        #expect(await repl.feed(":graph \(name)").first?.hasPrefix("error: :graph: unknown format '\(name)'") == true)
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/" + name))
    }

    @Test func reloadKeepsTheTreeLeavesWhatIsGoneAndSurvivesAFailure() async throws {
        let app = try TemporaryDirectory(files: ["app.lua": Self.app(children: #"{ id = "a" }, { id = "b" }"#)])
        defer { app.remove() }
        let repl = try await Fixture(app: app.path("app.lua"))
        await repl.feed("/root/b")
        try app.write("app.lua", Self.app(children: #"{ id = "a" }"#))
        #expect(await repl.feed(":reload") == [
            "reloaded; what no longer exists was left:", "  leave b",
            "carried to the new rules:", "  dropped 'b': the rules have no such node (no migration covers it)", "active: root",
        ])
        try app.write("app.lua", "portolan.app {")
        let failed = await repl.feed(":reload")
        #expect(failed.count == 1)
        #expect(failed.first?.hasPrefix("error: reload failed; the previous rules stay: ") == true)
        #expect(await repl.feed("/root/a") == ["  enter a", "active: root > a"])
    }

    @Test func watchReloadsWhenTheAppOrAFileItLoadsChanges() async throws {
        let app = try TemporaryDirectory(files: [
            "app.lua": #"portolan.load("more.lua")"# + "\n" + Self.app(children: #"{ id = "a" }"#),
            "more.lua": "extra = 1",
        ])
        defer { app.remove() }
        let repl = try await Fixture(app: app.path("app.lua"))
        #expect(await repl.session.watchedFiles == [app.path("app.lua"), app.path("more.lua")])
        #expect(await repl.session.reloadIfChanged() == false)
        try await Task.sleep(for: .milliseconds(20))
        try app.write("more.lua", "extra = 2")
        repl.output.withLock { $0 = [] }
        #expect(await repl.session.reloadIfChanged() == true)
        #expect(repl.output.value == ["\(app.path("more.lua")) changed: reloaded", "active: root"])
        #expect(await repl.feed("extra") == ["2"])
        #expect(await repl.session.reloadIfChanged() == false)
    }

    // MARK: :record

    @Test func aRecordedSessionReplaysUnderTheScenarioRunner() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("recorded.lua")
        let repl = try await Fixture()
        await repl.feed(
            ":record \(file)",
            "/root/onboarding/onboarding_login",
            "login()",
            "/wishlist/movies/42",
            "portolan.route '/watched'",
            "/root/nowhere",
            "local n = 1",
            "pending_link",
            "nil + 1",
            "function double(x)", "  return x * 2", "end",
            "/root/onboarding/onboarding_login{remembered=true}",
            "/watched/movies/1/cast/2",
            ":back",
            "/settings")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains(#"expect(portolan.route("/wishlist/movies/42"), { "leave onboarding_login", "switch root -> dashboard", "enter wishlist_movie {id=42}" })"#))
        #expect(written.contains("  login()\n"))
        #expect(written.contains("  do local n = 1 end\n"))
        #expect(!written.contains("pending_link"))
        #expect(written.contains(#"expect(err and err.kind, "unreachable")"#))
        #expect(written.contains("-- Run with: portolan test --app Examples/movies/app.lua \(file)"))
        #expect(await repl.feed(":record off") == ["recorded 8 routes to \(file)"])

        // The demo app lies outside the file's directory, where portolan.load cannot reach: the
        // file says to give --app, and passes with it.
        #expect(written.contains("-- (the app is outside this file's directory"))
        #expect(!written.contains("portolan.load("))
        let results = try await Self.runScenarios(file, app: Repository.path("Examples/movies/app.lua"))
        #expect(results.map(\.passed) == [true], "\(results)\n\(written)")
    }

    @Test func aRecordingBesideItsAppLoadsTheAppItselfWhenRunWithoutIt() async throws {
        let movies = try String(contentsOfFile: Repository.path("Examples/movies/app.lua"), encoding: .utf8)
        let directory = try TemporaryDirectory(files: ["app.lua": movies])
        defer { directory.remove() }
        let repl = try await Fixture(app: directory.path("app.lua"))
        await repl.feed(":record \(directory.path("r.lua"))", "/root/onboarding/onboarding_login", ":record off")
        let written = try String(contentsOfFile: directory.path("r.lua"), encoding: .utf8)
        #expect(written.contains(#"if not pcall(portolan.active_path) then portolan.load("app.lua") end"#))
        let results = try await Self.runScenarios(directory.path("r.lua"), app: nil)
        #expect(results.map(\.passed) == [true], "\(results)\n\(written)")
    }

    /// Issue 11: a recording started mid-session passes as written. It replays the Lua typed
    /// before (here `login()`, without which the dashboard's guard turns routes away), routes to
    /// where the session stood, tabs left deep included, and then expects what the session saw.
    @Test func aRecordingStartedMidSessionPassesAsWritten() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("r.lua")
        let repl = try await Fixture()
        await repl.feed("login()", "nil + 1", "/wishlist/movies/42", "/watched/movies/1/cast/2", ":record \(file)")
        // Back to the wishlist tab: it kept movie 42, which the replay must have rebuilt to leave it.
        await repl.feed("/wishlist", "/root/nowhere", ":record off")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("  login()\n"))
        #expect(!written.contains("nil + 1"))
        #expect(written.contains(#"portolan.route({ "root", "dashboard", "wishlist", { id = "wishlist_movie", context = { id = 42 } } })"#))
        #expect(written.contains(#"expect(portolan.route("/wishlist"), { "switch dashboard -> wishlist", "leave wishlist_movie {id=42}" })"#), "\(written)")
        #expect(written.contains(#"expect(err and err.kind, "unreachable")"#))
        let results = try await Self.runScenarios(file, app: Repository.path("Examples/movies/app.lua"))
        #expect(results.map(\.passed) == [true], "\(results)\n\(written)")

        #expect(await repl.feed(":record") == ["error: :record needs a file, as in :record session.lua (:record off stops)"])
        #expect(await repl.feed(":record /nonexistent-dir/x.lua").first?.hasPrefix("error: cannot write /nonexistent-dir/x.lua") == true)
    }

    // MARK: Output

    /// Issue 10, item 2: what a line's Lua prints is bounded per line, as a scenario's output is.
    @Test func whatOneLinePrintsIsBoundedAndTheNextLineStartsAfresh() async throws {
        let repl = try await Fixture()
        let printed = await repl.feed("local big = string.rep('x', 1 << 20) for _ = 1, 40 do print(big) end")
        #expect(printed.count == 40, "\(printed.count) lines")
        #expect(printed.allSatisfy { $0.hasSuffix("… (line cut at 4096 bytes of 1048576)") })
        let chatty = await repl.feed("for _ = 1, 300 do print(string.rep('y', 4000)) end")
        #expect(chatty.last == "… (output cut after 1 MiB)")
        #expect(chatty.reduce(0) { $0 + $1.utf8.count } <= BoundedOutput.byteLimit + 200)
        let lines = await repl.feed("for i = 1, 2500 do print(i) end")
        #expect(lines.count == BoundedOutput.lineLimit + 1)
        #expect(lines.last == "… (output cut after 2000 lines)")
        #expect(await repl.feed("print('next')") == ["next"])
    }

    // MARK: Colours

    @Test func coloursOnlyOnATerminalAndNeverWithNoColor() async throws {
        #expect(ReplStyle.decide(outputIsTerminal: true, environment: [:]).isColored)
        #expect(ReplStyle.decide(outputIsTerminal: true, environment: ["NO_COLOR": ""]).isColored)
        #expect(!ReplStyle.decide(outputIsTerminal: true, environment: ["NO_COLOR": "1"]).isColored)
        #expect(!ReplStyle.decide(outputIsTerminal: true, environment: ["TERM": "dumb"]).isColored)
        #expect(!ReplStyle.decide(outputIsTerminal: false, environment: [:]).isColored)
        #expect(ReplStyle.plain.paint("x", .error) == "x")
        #expect(ReplStyle(colored: true).prompt("p> ", literal: "\u{1}") == "\u{1}\u{1B}[1;36m\u{1}p> \u{1}\u{1B}[0m\u{1}")

        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: nil, style: ReplStyle(colored: true), output: { line in output.withLock { $0.append(line) } })
        await session.handle("error('x')")
        await session.handle("/root/onboarding/onboarding_login")
        #expect(output.value.first == "\u{1B}[31merror: stdin:1: x\u{1B}[0m")
        #expect(output.value.contains("\u{1B}[33m  enter onboarding_login\u{1B}[0m"))
        #expect(output.value.last == "\u{1B}[32mactive: root > onboarding > onboarding_login\u{1B}[0m")
    }

    // MARK: Helpers

    static func app(children: String) -> String {
        #"portolan.app { id = "root", children = { "# + children + " } }\n"
    }

    struct Outcome: CustomStringConvertible {
        var passed: Bool
        var description: String
    }

    static func runScenarios(_ file: String, app: String?) async throws -> [Outcome] {
        let runner = ScenarioRunner(options: .init(app: app, timeout: .seconds(120)))
        var outcomes: [Outcome] = []
        for result in await runner.run(file: file) {
            outcomes.append(Outcome(passed: result.outcome == .passed, description: "\(result)"))
        }
        return outcomes
    }
}
