import Foundation
import Testing
import TestSupport

/// The second attack's attempts on verdicts (issue 18), through the real `portolan test`: an app
/// that wants its failing scenarios to pass, or its output to pass for the report's. Blocked means
/// exit status 1 and every one of the file's scenarios failed; any other status is a crash.
@Suite struct SecondAttackCLITests {
    struct Attempt: Sendable, CustomTestStringConvertible {
        let name: String
        /// Put before the app's declaration.
        let app: String
        let scenarios: String
        var format = "text"
        /// Gets through today: the finding it falls under, or "NEW: …".
        var escapes: String?
        var testDescription: String { "fake verdict: \(name)" }

        init(_ name: String, app: String, scenarios: String = SecondAttackCLITests.failing, format: String = "text") {
            self.name = name
            self.app = app
            self.scenarios = scenarios
            self.format = format
        }

        func escapes(_ why: String) -> Attempt {
            var copy = self
            copy.escapes = why
            return copy
        }
    }

    /// Three scenarios that must fail, whatever the app does short of changing its graph.
    static let failing = """
        scenario("must fail 1", function() expect(portolan.active_path(), { "root", "nowhere" }) end)
        scenario("must fail 2", function() local r, e = portolan.route { "root", "nowhere" } assert(r, tostring(e)) end)
        scenario("must fail 3", function() portolan.route { "root", "a" } expect_events({ "will_route root > b" }) end)
        """

    static let liar = "LIAR = setmetatable({}, { __eq = function() return true end })"

    static let attempts: [Attempt] = [
        Attempt("a value whose __eq says equal", app: liar, scenarios: """
            scenario("must fail", function() expect(LIAR, { "a", "b", "c" }) end)
            """),
        Attempt("a nested value whose __eq says equal", app: liar, scenarios: """
            scenario("must fail", function() expect({ items = LIAR }, { items = { 1, 2 } }) end)
            """),
        Attempt("a value whose __len, __index and __pairs lie", app: """
            LIST = setmetatable({}, { __len = function() return 2 end, __index = function(_, i) return ({ "a", "b" })[i] end,
              __pairs = function() return next, { "a", "b" }, nil end })
            """, scenarios: """
            scenario("must fail", function() expect(rawlen(LIST), 2) end)
            """),
        Attempt("scenarios declared by the app", app: #"scenario("fake", function() end)"#),
        Attempt("skip from an observer", app: #"portolan.on("did_route", function() skip("app") end)"#),
        Attempt("expect replaced", app: "expect = function() end"),
        Attempt("assert replaced", app: "assert = function(x) return x end"),
        Attempt("error replaced", app: "error = function() end"),
        Attempt("the global portolan replaced", app: """
            local real = portolan
            portolan = setmetatable({ active_path = function() return { "root", "nowhere" } end,
              route = function() return {} end }, { __index = real })
            """),
        Attempt("an __index on the globals", app: "setmetatable(_G, { __index = function() return function() end end })"),
        Attempt("pcall replaced", app: "pcall = function() return true end"),
        Attempt("tostring replaced", app: "tostring = function() return '' end"),
        Attempt("type replaced", app: "type = function() return 'nil' end"),
        Attempt("select replaced", app: "select = function() return 0 end"),
        Attempt("next and ipairs replaced", app: "next = function() return nil end ipairs = function() return next, {}, nil end"),
        Attempt("setmetatable replaced", app: "setmetatable = function(t) return t end"),
        Attempt("the global table replaced", app: """
            table = setmetatable({ pack = function() return { n = 0 } end, concat = function() return '' end }, { __index = table })
            """),
        Attempt("the global string replaced", app: "string = setmetatable({ format = function() return '' end }, { __index = string })"),
        Attempt("an error object that says skipped", app: """
            portolan.on("will_route", function() error(setmetatable({}, { __tostring = function() return "skipped" end })) end)
            """),
        Attempt("a coroutine yield from the app's observer", app: #"portolan.on("did_route", function() coroutine.yield() end)"#),
        Attempt("fake TAP lines in the output", app: """
            portolan.on("will_route", function() print("ok 1 - fail.lua: must fail 1\\nok 2 - x\\n1..3\\n# 3 passed, 0 failed") end)
            """, format: "tap"),
        Attempt("fake TAP lines in an error", app: """
            portolan.intercept(function() error("\\nok 1 - fake\\n1..1", 0) end)
            """, format: "tap"),
        Attempt("a fake summary line in the text report", app: """
            portolan.on("will_route", function() print("\\n3 passed, 0 failed") end)
            """),
        Attempt("a JUnit failure closed early", app: """
            portolan.intercept(function() error("]]></failure></testcase><testcase name='x'/>", 0) end)
            """, format: "junit"),
        Attempt("os.exit looked for", app: "local exit = (os or {}).exit or (package and package.loaded.os or {}).exit if exit then exit(0) end"),
    ]

    /// Runs the app and scenario file of `attempt` through the built binary.
    static func run(_ attempt: Attempt) async throws -> PortolanBinary.Run {
        let app = attempt.app + "\n" + #"portolan.app { id = "root", children = { { id = "a" }, { id = "b" } } }"#
        let directory = try TemporaryDirectory("cli", files: ["app.lua": app, "fail.lua": attempt.scenarios])
        defer { directory.remove() }
        return try await PortolanBinary.run(
            ["test", "--app", "app.lua", "--timeout", "20", "--format", attempt.format, "fail.lua"], in: directory)
    }

    /// Blocked: exit 1, nothing passed or skipped, and no line of the report forged.
    static func isBlocked(_ run: PortolanBinary.Run, format: String) -> Bool {
        guard run.status == 1 else { return false }
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch format {
        case "tap":
            return !lines.contains { $0.hasPrefix("ok ") } && lines.contains { $0.hasPrefix("# 0 passed") }
        case "junit":
            return run.stdout.contains("skipped=\"0\"") && !run.stdout.contains("<testcase name='x'")
                && run.stdout.components(separatedBy: "<testcase ").count - 1 == run.stdout.components(separatedBy: "<failure").count - 1
        default:
            return run.lastLine.hasPrefix("0 passed") && !run.lastLine.contains("skipped")
                && !lines.contains { $0.hasPrefix("ok ") || $0.hasPrefix("skip ") }
        }
    }

    @Test(arguments: SecondAttackCLITests.attempts.filter { $0.escapes == nil })
    func aFakeVerdictIsNotBelieved(_ attempt: Attempt) async throws {
        let run = try await Self.run(attempt)
        #expect(Self.isBlocked(run, format: attempt.format), "\(attempt.name): status \(run.status)\n\(run.stdout.prefix(1500))")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PORTOLAN_ATTACK_TABLE"] != nil))
    func printTheTable() async throws {
        var counts = (blocked: 0, escaped: 0, crash: 0)
        for attempt in Self.attempts {
            let run = try await Self.run(attempt)
            let crashed = run.status != 0 && run.status != 1
            let blocked = Self.isBlocked(run, format: attempt.format)
            if crashed { counts.crash += 1 } else if blocked { counts.blocked += 1 } else { counts.escaped += 1 }
            if !blocked {
                print("attack-detail: \(crashed ? "crash" : "escaped") | \(attempt.testDescription) | \(attempt.escapes ?? "recorded as blocked") | status \(run.status): \(run.lastLine)")
            }
        }
        print("attack-row: | fake verdict (CLI) | \(Self.attempts.count) | \(counts.blocked) | \(counts.escaped) | \(counts.crash) | 0 |")
    }
}
