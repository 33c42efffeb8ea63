import Foundation
import Testing
@testable import Lua

/// The sandbox's bounded find, match, gmatch and gsub give what liblua5.4's give, errors included: compared
/// in one state holding both sets, on random cases and on hand-picked edges.
@Suite struct BoundedPatternTests {
    let state: LuaState

    init() throws {
        state = try LuaState(sandboxed: false)
        try state.setBoundedPatternFunctions(asGlobal: "bounded")
        // What a call returns or raises, as one comparable string.
        _ = try state.run("""
            function outcome(ok, ...)
              if not ok then return "error " .. tostring((...)) end
              local parts = { "ok" }
              for i = 1, select("#", ...) do
                local value = select(i, ...)
                parts[#parts + 1] = type(value) == "string" and string.format("%q", value) or tostring(value)
              end
              return table.concat(parts, " ")
            end
            function matches(gmatch, ...)
              local found = {}
              for a, b in gmatch(...) do found[#found + 1] = tostring(a) .. (b ~= nil and "," .. tostring(b) or "") end
              return table.concat(found, " ")
            end
            """, chunkName: "=helpers")
    }

    /// The seeded differential run: `PATTERN_SEED` and `PATTERN_CASES` in the environment pick another or a
    /// longer one.
    @Test func randomCasesAgreeWithLiblua() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["PATTERN_SEED"].flatMap(Int64.init) ?? 20_250_610
        let cases = environment["PATTERN_CASES"].flatMap(Int64.init) ?? 10_000
        let generator = try state.load(bytes: PackageResources.PatternCases_lua, chunkName: "=PatternCases.lua")
        let results = try state.call(generator, [.integer(seed), .integer(cases), try state.global("string"),
                                                 try state.global("bounded")])
        try #require(results.count == 3)
        #expect(results[0] == .integer(cases))
        #expect(results[1] == "", "seed \(seed)")
        guard case .string(let outcomes) = results[2] else {
            Issue.record("no outcomes: \(results[2])")
            return
        }
        // The generator reaches every kind of result and every error of the pattern language.
        for outcome in [
            "match", "no match", "malformed pattern (ends with '%')", "malformed pattern (missing ']')",
            "missing '[' after '%f' in pattern", "malformed pattern (missing arguments to '%b')",
            "invalid capture index %1", "invalid capture index %0", "invalid pattern capture", "unfinished capture",
            "too many captures", "pattern too complex", "invalid use of '%' in replacement string",
            "invalid replacement value (a table)",
        ] {
            let line = outcome.hasPrefix("match") || outcome.hasPrefix("no match") ? outcome : "error: " + outcome
            #expect(outcomes.contains(line + "\t"), "never reached: \(outcome)\n\(outcomes)")
        }
    }

    /// Each call, as Lua source after `string.` or `bounded.`, gives the same outcome both ways; `expected`
    /// is liblua5.4's, written out so the edge itself is on record (an error's message without its position,
    /// which is the same line for both).
    func expectSame(_ call: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let results = try state.run("""
            return outcome(pcall(function() return string.\(call) end)), outcome(pcall(function() return bounded.\(call) end))
            """, chunkName: "=edge")
        let expected = expected.hasPrefix("error ") ? "error edge:1: " + expected.dropFirst(6) : expected
        try #require(results.count == 2, sourceLocation: sourceLocation)
        #expect(results[0] == .string(expected), "liblua5.4: \(call)", sourceLocation: sourceLocation)
        #expect(results[1] == results[0], "bounded: \(call)", sourceLocation: sourceLocation)
    }

    @Test func emptyPatternsAndSubjects() throws {
        try expectSame(#"find("", "")"#, "ok 1 0")
        try expectSame(#"find("abc", "")"#, "ok 1 0")
        try expectSame(#"match("", "^$")"#, #"ok """#)
        try expectSame(#"match("", ".*")"#, #"ok """#)
        try expectSame(#"gsub("", "", "-")"#, #"ok "-" 1"#)
        try expectSame(#"gsub("abc", "", "-")"#, #"ok "-a-b-c-" 4"#)
        try expectSame(#"gsub("hello world", "o*", "-")"#, #"ok "-h-e-l-l- -w-r-l-d-" 10"#)
        try expectSame(#"gsub("abc", "x*", "%0%0")"#, #"ok "abc" 4"#)
    }

    @Test func anchorsInFindGmatchAndGsub() throws {
        try expectSame(#"find("aXa", "^X")"#, "ok nil")
        try expectSame(#"find("aXa", "^X", 2)"#, "ok 2 2")
        try expectSame(#"find("a^b", "^b", 1, true)"#, "ok 2 3")
        try expectSame(#"find("a^b", "^b", 3, true)"#, "ok nil")
        try expectSame(#"match("abc", "c$")"#, #"ok "c""#)
        try expectSame(#"match("a$c", "a$c")"#, #"ok "a$c""#)
        try expectSame(#"gsub("aaa", "^a", "b")"#, #"ok "baa" 1"#)
        try expectSame(#"gsub("abc", "$", "!")"#, #"ok "abc!" 1"#)
        try expectSame(#"gsub("abc", "^", ">")"#, #"ok ">abc" 1"#)
        // In gmatch a leading '^' is an ordinary character.
        #expect(try state.run(#"return matches(string.gmatch, "^a^a", "^a"), matches(bounded.gmatch, "^a^a", "^a")"#)
            == ["^a ^a", "^a ^a"])
    }

    @Test func frontiersAtBothEnds() throws {
        try expectSame(#"find("abc", "%f[%a]")"#, "ok 1 0")
        try expectSame(#"find("abc", "%f[%z]")"#, "ok 4 3")
        try expectSame(#"find("abc", "%f[%A]")"#, "ok 4 3")
        try expectSame(#"gsub("THE (quick) fox", "%f[%a]%a+", "W")"#, #"ok "W (W) W" 3"#)
        try expectSame(#"gsub("hello world", "%f[%w]%w+%f[%W]", "<%0>")"#, #"ok "<hello> <world>" 2"#)
        try expectSame(#"find("a", "%f")"#, "error missing '[' after '%f' in pattern")
    }

    @Test func balancedMatches() throws {
        try expectSame(#"find("((a)", "%b()")"#, "ok 2 4")
        try expectSame(#"find("(((", "%b()")"#, "ok nil")
        try expectSame(#"match("x(a(b)c", "%b()")"#, #"ok "(b)""#)
        try expectSame(#"match("x(a(bc", "%b()")"#, "ok nil")
        try expectSame(#"match("f(a(b)c)d", "%b()")"#, #"ok "(a(b)c)""#)
        try expectSame(#"match("'a'b'", "%b''")"#, #"ok "'a'""#)
        try expectSame(#"find("(", "%b(")"#, "error malformed pattern (missing arguments to '%b')")
    }

    @Test func startPositions() throws {
        try expectSame(#"find("abc", "a", 10)"#, "ok nil")
        try expectSame(#"find("abc", "", 4)"#, "ok 4 3")
        try expectSame(#"find("abc", "", 5)"#, "ok nil")
        try expectSame(#"match("abc", ".", 4)"#, "ok nil")
        try expectSame(#"match("abc", "()", 4)"#, "ok 4")
        try expectSame(#"find("abcabc", "b", -2)"#, "ok 5 5")
        try expectSame(#"find("abc", "a", -10)"#, "ok 1 1")
        try expectSame(#"find("abc", "c", math.mininteger)"#, "ok 3 3")
        try expectSame(#"find("abc", "c", math.maxinteger)"#, "ok nil")
        try expectSame(#"find("abc", "b", 0)"#, "ok 2 2")
        #expect(try state.run(#"return matches(string.gmatch, "abc", ".", -1), matches(bounded.gmatch, "abc", ".", -1)"#)
            == ["c", "c"])
        #expect(try state.run(#"return matches(string.gmatch, "abc", "()", 10), matches(bounded.gmatch, "abc", "()", 10)"#)
            == ["", ""])
        #expect(try state.run(#"return matches(string.gmatch, "abc", "()", 2), matches(bounded.gmatch, "abc", "()", 2)"#)
            == ["2 3 4", "2 3 4"])
    }

    @Test func captures() throws {
        try expectSame(#"gsub("abc", "()", "%1")"#, #"ok "1a2b3c4" 4"#)
        try expectSame(#"gsub("hello", "()ll()", "%1-%2")"#, #"ok "he3-5o" 1"#)
        try expectSame(#"gsub("hello", "l+", "<%1>")"#, #"ok "he<ll>o" 1"#)
        try expectSame(#"gsub("hello", "l+", "%2")"#, "error invalid capture index %2")
        try expectSame(#"gsub("hello", "l", "%")"#, "error invalid use of '%' in replacement string")
        try expectSame(#"gsub("hello", "(l)(l)", "%2%1%0%%")"#, #"ok "hellll%o" 1"#)
        try expectSame(#"match(("a"):rep(32), ("(a)"):rep(32))"#, "ok" + String(repeating: #" "a""#, count: 32))
        try expectSame(#"match(("a"):rep(33), ("(a)"):rep(33))"#, "error too many captures")
        try expectSame(#"find("abc", "(b")"#, "error unfinished capture")
        try expectSame(#"gsub("abc", "(b", "x")"#, #"ok "axc" 1"#)
        try expectSame(#"find("abc", "b)")"#, "ok nil")   // no special character: a plain find
        try expectSame(#"match("abc", "b)")"#, "error invalid pattern capture")
        try expectSame(#"match(" x", "^%s*()")"#, "ok 2")
    }

    @Test func backReferences() throws {
        try expectSame(#"match([[say "hi" 'there']], "([\"'])(.-)%1")"#, #"ok "\"" "hi""#)
        try expectSame(#"find("xabab", "(ab)%1")"#, #"ok 2 5 "ab""#)
        try expectSame(#"find("aa", "(a%1)")"#, "error invalid capture index %1")
        try expectSame(#"find("aa", "()%1")"#, "ok nil")
        try expectSame(#"find("aa", "%0")"#, "error invalid capture index %0")
        try expectSame(#"find("aa", "(a)%2")"#, "error invalid capture index %2")
    }

    @Test func replacementsByTableFunctionAndCount() throws {
        try expectSame(#"gsub("aaa", "a", "b", 2)"#, #"ok "bba" 2"#)
        try expectSame(#"gsub("aaa", "a", "b", 0)"#, #"ok "aaa" 0"#)
        try expectSame(#"gsub("aaa", "a", "b", -1)"#, #"ok "aaa" 0"#)
        try expectSame(#"gsub("a b c", "%a", { a = "1", b = false, c = 3 })"#, #"ok "1 b 3" 3"#)
        try expectSame(#"gsub("a b", "%a", { a = {} })"#, "error invalid replacement value (a table)")
        try expectSame(#"gsub("k=v, x=y", "(%w)=(%w)", function(k, v) return v .. k end)"#, #"ok "vk, yx" 2"#)
        try expectSame(#"gsub("abc", "%w", function() end)"#, #"ok "abc" 3"#)
        try expectSame(#"gsub("abc", "b", 5.5)"#, #"ok "a5.5c" 1"#)
        try expectSame(#"gsub("abc", "b", true)"#,
                       "error bad argument #3 to 'gsub' (string/function/table expected, got boolean)")
    }

    @Test func plainFindAndArguments() throws {
        try expectSame(#"find("a.b", ".", 1, true)"#, "ok 2 2")
        try expectSame(#"find("a+b", "+", 1, "yes")"#, "ok 2 2")
        try expectSame(#"find("a.b", "a.b", 2)"#, "ok nil")
        try expectSame(#"find("abc", "bc")"#, "ok 2 3")
        try expectSame(#"find("a\0b", "\0b")"#, "ok 2 3")
        try expectSame(#"find(nil, "a")"#, "error bad argument #1 to 'find' (string expected, got nil)")
        try expectSame(#"find("a", "a", "x")"#, "error bad argument #3 to 'find' (number expected, got string)")
        try expectSame(#"find(12.5, 2)"#, "ok 2 2")
        try expectSame(#"gsub("a", "a", nil, "x")"#, "error bad argument #4 to 'gsub' (number expected, got string)")
        try expectSame(#"gmatch("a")"#, "error bad argument #2 to 'gmatch' (string expected, got no value)")
    }

    @Test func malformedPatternsNameTheCallerLine() throws {
        let error = #expect(throws: LuaError.self) {
            try state.run("local s = 'abc'\nreturn bounded.find(s, '[a')", chunkName: "=app.lua")
        }
        #expect(error?.message == "app.lua:2: malformed pattern (missing ']')")
        // Reached only when the match gets there, as in liblua5.4.
        try expectSame(#"find("", "a[")"#, "ok nil")
    }

    @Test func aGmatchIteratorRunsInAnotherCoroutine() throws {
        let results = try state.run("""
            local next = bounded.gmatch("one two three", "%a+")
            local words = {}
            local co = coroutine.wrap(function() words[#words + 1] = next() coroutine.yield() words[#words + 1] = next() end)
            co()
            words[#words + 1] = next()
            co()
            return table.concat(words, ",")
            """)
        #expect(results == ["one,two,three"])
    }
}
