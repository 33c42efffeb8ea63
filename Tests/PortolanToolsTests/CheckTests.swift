import PortolanLua
@testable import PortolanTools
import Portolan
import Testing
import TestSupport
@testable import PortolanShipping

/// `portolan check` as a library: each lint on the fixture apps and on small apps of its own.
@Suite struct CheckTests {
    static let root = Repository.root

    private func check(_ source: String, file: String = "app.lua") async -> CheckReport {
        await AppChecker.check(source: source, file: file)
    }

    private func codes(_ report: CheckReport) -> [String] {
        report.findings.map { "\($0.line) \($0.code.rawValue)" }
    }

    // MARK: The fixtures

    /// Every line of the fixture that ends with `-- <code>` is reported with that code, and
    /// nothing else is: the fixture documents its own expected findings.
    @Test func theBadFixtureFindsEveryLintAtItsLine() async throws {
        let path = Self.root + "/Examples/lint/bad_app.lua"
        let source = try #require(AppChecker.readFile(path))
        var expected: [String] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let match = line.firstMatch(of: /--\s+([a-z]+(?:-[a-z]+)+)/),
                CheckFinding.Code(rawValue: String(match.output.1)) != nil
            else { continue }
            expected.append("\(index + 1) \(match.output.1)")
        }
        let report = await AppChecker.check(file: path)
        #expect(codes(report).sorted() == expected.sorted(), "\(report.text)")
        let found = Set(report.findings.map(\.code))
        let elsewhere: Set<CheckFinding.Code> = [.syntaxError, .loadError, .noApp]
        #expect(Set(CheckFinding.Code.allCases).subtracting(elsewhere).subtracting(found).isEmpty)
        #expect(report.findings.allSatisfy { $0.file == path })
        #expect(report.hasErrors)
    }

    @Test(arguments: ["Examples/lint/good_app.lua", "Examples/movies/app.lua", "Examples/portus/app.lua"])
    func cleanAppsHaveNoFindings(_ file: String) async {
        let report = await AppChecker.check(file: Self.root + "/" + file)
        #expect(report.findings.isEmpty, "\(report.text)")
        #expect(report.summary == "0 errors, 0 warnings")
    }

    @Test func aSyntaxErrorIsOneFindingAtItsLine() async {
        let report = await AppChecker.check(file: Self.root + "/Examples/lint/broken_syntax.lua")
        #expect(report.findings.count == 1)
        #expect(report.findings.first?.code == .syntaxError)
        #expect(report.findings.first?.line == 7)
    }

    // MARK: Text and JSON

    @Test func textAndJSONFormats() async {
        let report = await check("""
            portolan.app { id = "root", children = {
              { id = "a" },
              { id = "a", enter = 1 } } }
            """)
        #expect(report.text == """
            app.lua:3: error: the enter handler of 'a' is a number, not a function [handler-not-function]
            app.lua:3: error: duplicate id 'a' (first declared at line 2) [duplicate-id]
            2 errors, 0 warnings
            """)
        #expect(report.json.contains(#"{"severity": "error", "code": "duplicate-id", "file": "app.lua", "line": 3, "message": "duplicate id 'a' (first declared at line 2)"}"#))
        #expect(report.json.contains(#""errors": 2,"#))
        #expect(Escaping.jsonString("a\"b\\c\n\u{1}") == #""a\"b\\c\u000A\u0001""#)
    }

    // MARK: Loading

    @Test func aScriptThatFailsAfterDeclaringIsStillLinted() async {
        let report = await check("""
            portolan.app { id = "root", children = { { id = "a" }, { id = "a" } } }
            local x = nil
            x.field = 1
            """)
        #expect(codes(report) == ["1 duplicate-id", "3 load-error"], "\(report.text)")
        #expect(report.findings.last?.message.contains("attempt to index") == true)
    }

    @Test func aScriptWithoutAnApp() async {
        let report = await check("local x = 1\n")
        #expect(codes(report) == ["0 no-app"])
        #expect(report.text.hasPrefix("app.lua: error: the script never calls portolan.app"))
    }

    @Test func anEndlessScriptIsCut() async {
        let report = await check("portolan.app { id = \"root\" }\nwhile true do end\n")
        #expect(codes(report) == ["2 load-error"], "\(report.text)")
    }

    @Test func topLevelRoutesAndHandlersRunAsUsual() async {
        let report = await check("""
            portolan.app { id = "root", children = { { id = "a", enter = function() print("hi") end } } }
            assert(portolan.route { "root", "a" })
            """)
        #expect(report.findings.isEmpty, "\(report.text)")
    }

    // MARK: Lines

    @Test func nodesGetTheLineOfTheirIDFieldAndFindingsTheLineOfTheirField() async {
        let report = await check("""
            local function screen(name)
              return {
                kind = "screen",
                id = name,
                enter = "oops",
              }
            end
            portolan.app({
              id = "root",
              children = { screen("a"), screen("b"), screen("a") },
            })
            """)
        // The handler findings point at the field, in the helper, for each node it built.
        #expect(codes(report) == ["4 duplicate-id", "5 handler-not-function", "5 handler-not-function", "5 handler-not-function"],
                "\(report.text)")
        #expect(report.findings.contains { $0.message == "duplicate id 'a' (first declared by the same table, at line 4)" })
    }

    @Test func theMarkerKeepsLinesAndLeavesStringsAndCommentsAlone() {
        let source = """
            local t = f{ id = "a" }{ id = "b" } -- { id = "c" }
            local s = [[ { id = "d" } ]]
            --[==[ { id = "e" }
            ]==] local u = { x = { id = "f" }, id = "g" }
            """
        let marked = NodeLineMarker.mark(source)
        #expect(marked.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
        #expect(marked == """
            local t = f(__portolan_at(1,{ id = "a" }))(__portolan_at(1,{ id = "b" })) -- { id = "c" }
            local s = [[ { id = "d" } ]]
            --[==[ { id = "e" }
            ]==] local u = (__portolan_at(4,{ x = (__portolan_at(4,{ id = "f" })), id = "g" }))
            """)
    }

    @Test func tokensDecodeStrings() {
        let tokens = LuaTokenizer.tokens(of: #"a = "x\"y\65\u{48}\z   z" .. 'q' -- c"#)
        #expect(tokens.compactMap(\.string) == ["x\"yAHz", "q"])
        #expect(tokens.map(\.line) == [1, 1, 1, 1, 1])
    }

    // MARK: Individual lints

    @Test func structuralMistakes() async {
        let report = await check("""
            portolan.app {
              id = "root", kind = "switch",
              children = {
                { id = "" },
                { kind = "screen" },
                "not a node",
                { id = "s", kind = "switch" },
                { id = "t", children = 3, route = 7 },
              },
              anywhere = 5,
            }
            """)
        // A string where a node should be has no line of its own: it gets the portolan.app call's.
        #expect(codes(report) == [
            "1 invalid-node", "4 invalid-node", "5 invalid-node", "7 invalid-node", "8 invalid-node", "8 invalid-route",
            "10 invalid-node",
        ], "\(report.text)")
        #expect(report.findings.map(\.message).contains("child 2 of 'root' has no id"))
    }

    @Test func activeNamingANodeElsewhere() async {
        let report = await check("""
            portolan.app { id = "root", kind = "switch", active = "leaf",
              children = { { id = "a", children = { { id = "leaf" } } }, { id = "b" } } }
            """)
        #expect(report.findings.map(\.message) == [
            "switch node 'root' names 'leaf' as active, which is not one of its children: 'leaf' is a child of 'a'; its children are 'a', 'b'",
        ])
    }

    @Test func redirectsAreCheckedAgainstTheGraph() async {
        let report = await check("""
            local p = require "portolan"
            p.app { id = "root", children = {
              { id = "a", route = "/a", children = { { id = "b", route = "/a/:id<int>" } } } },
              anywhere = { { id = "alert" } } }
            p.redirect_rule("/old", "/a/7")
            p.intercept(function(request)
              if x then return p.redirect("/a/7") end
              if x then return p.redirect("/old") end
              if x then return p.redirect("/a/x") end
              if x then return p.redirect("alert") end
              if x then return p.redirect { id = "alert", context = { m = "hi" } } end
              if x then return p.redirect { "root", "a", { id = "b", context = { id = 1 } } } end
              if x then return p.redirect { "root", "a", "alert" } end
              if x then return p.redirect { "root", some_id } end
              if x then return p.redirect { "a", "b" } end
              if x then return p.redirect { "root", "b" } end
              if x then return p.redirect { id = "aler" } end
              if request:goes_to("b") or request:goes_to("c") then return false end
            end)
            """)
        #expect(codes(report) == [
            "9 unknown-node-in-redirect", "15 invalid-redirect", "16 invalid-redirect", "17 unknown-node-in-redirect",
            "18 unknown-node-in-guard",
        ], "\(report.text)")
        #expect(report.findings.contains { $0.message == "redirect to 'aler': no node 'aler' is declared (did you mean 'alert'?)" })
    }

    @Test func aRedirectFunctionMakesUnmatchedURLsAWarning() async {
        let report = await check("""
            portolan.app { id = "root", route = "/" }
            portolan.redirect_rule(function(url) return nil end)
            portolan.intercept(function() return portolan.redirect("/nowhere") end)
            """)
        #expect(report.findings.map(\.severity) == [.warning])
        #expect(codes(report) == ["3 unknown-node-in-redirect"])
    }

    /// Redirect rules apply in declaration order, the first that matches winning (docs/urls.md):
    /// a rule an earlier one always matches first never applies, and `check` says so.
    @Test func aRedirectRuleAnEarlierOneShadowsIsAWarning() async {
        let report = await check("""
            portolan.app { id = "root", children = { { id = "movie", route = "/movies/:id" } } }
            portolan.redirect_rule("/go/:n", "/movies/:n")
            portolan.redirect_rule("/go/2", "/movies/3")
            portolan.redirect_rule("/go/:a/:b", "/movies/:a")
            portolan.redirect_rule("/go/:n", "/movies/4")
            """)
        #expect(codes(report) == ["3 shadowed-redirect-rule", "5 shadowed-redirect-rule"], "\(report.text)")
        #expect(report.findings.first?.message == "redirect rule '/go/2' → '/movies/3' never applies: the earlier rule "
            + "'/go/:n' → '/movies/:n' (line 2) matches every URL it does, and the first declared rule wins")
        #expect(report.findings.map(\.severity) == [.warning, .warning])
    }

    @Test func interceptorsThatAlwaysTurnANodeAway() async {
        let report = await check("""
            portolan.app { id = "root", kind = "switch", children = {
              { id = "home", guard = function() return false end },
              { id = "vault", children = { { id = "gold" } } } } }
            portolan.intercept(function(request)
              if request:goes_to("vault") then return portolan.deny("closed") end
            end)
            portolan.intercept(function(request)
              if something then return end
              if request:goes_to("home") then return false end
            end)
            """)
        // 'home' is where the app starts; the second interceptor is conditional before its test.
        #expect(codes(report) == ["3 unreachable-node"], "\(report.text)")
        #expect(report.findings.first?.message
            == "no route can reach 'vault' or the nodes below it ('gold'): an interceptor (line 5) does return portolan.deny(…) for every route that goes to it")
    }

    @Test func shadowedAndAmbiguousRoutes() async {
        let report = await check("""
            portolan.app { id = "root", route = "/", case_insensitive_routes = true, children = {
              { id = "a", route = { "/x/*/y", "/About" } },
              { id = "b", route = { "/x/:id/:z", "/about" } },
              { id = "c", route = { "/n/:id<int>", "/n/:k{[0-9]+}" } },
              { id = "d", route = "/n/*" } } }
            """)
        #expect(codes(report) == ["2 shadowed-route", "3 ambiguous-route", "4 ambiguous-route"], "\(report.text)")
        #expect(report.findings.first?.message
            == "route '/x/*/y' of 'a' never matches: route '/x/:id/:z' of 'b' (line 3) matches every URL it does and is tried first")
    }

    @Test func misspelledHandlers() {
        let handlers = AppLinter.handlerNames
        #expect(AppLinter.lookalike("on_enter", among: handlers) == "enter")
        #expect(AppLinter.lookalike("canLeave", among: handlers) == "can_leave")
        #expect(AppLinter.lookalike("eneter", among: handlers) == "enter")
        #expect(AppLinter.lookalike("contextTask", among: handlers) == "context_task")
        #expect(AppLinter.lookalike("context_tsk", among: handlers) == "context_task")
        #expect(AppLinter.lookalike("refresh", among: handlers) == nil)
        #expect(AppLinter.lookalike("load", among: handlers) == nil)
    }

    @Test func misspelledFieldsAndHandlersThatNeverRun() async {
        let report = await check("""
            portolan.app {
              id = "root", kind = "switch",
              children = {
                { id = "tabs", kind = "switch", kepp = true,
                  children = {
                    { id = "a", enter = function() end,
                      contextTask = function() end },
                    { id = "b", leave = function() end, title = "B" },
                  } },
              },
            }
            """)
        #expect(codes(report) == [
            "4 unknown-field", "6 handler-never-runs", "7 unknown-handler", "8 handler-never-runs",
        ], "\(report.text)")
        #expect(report.findings.first?.message == "'tabs' has a field 'kepp', which Portolan never reads; did you mean 'keep'?")
    }

    @Test func aNodeTableThatContainsItself() async {
        let report = await check("""
            local loop = { id = "loop" }
            loop.children = { loop }
            portolan.app { id = "root", children = { loop } }
            """)
        #expect(codes(report) == ["1 invalid-node"], "\(report.text)")
        #expect(report.findings.first?.message == "the node table of 'loop' contains itself")
    }
}

extension CheckTests {
    @Test func aTailCalledAppAndAFailureAfterARefusedGraph() async {
        let report = await check("""
            local function declare()
              return portolan.app { id = "root", children = { { id = "a" }, { id = "a" } } }
            end
            declare()
            assert(portolan.route { "root", "a" })
            """)
        #expect(codes(report) == ["2 duplicate-id", "5 load-error"], "\(report.text)")
        #expect(report.findings.last?.message.hasSuffix("(portolan.app had refused the graph, so the script ran without one)") == true)
    }
}
