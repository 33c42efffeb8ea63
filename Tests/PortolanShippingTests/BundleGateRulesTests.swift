import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// The gate's stages that run the bundle's Lua (load, lint, scenarios), on bad rules, at least
/// three of each class: each is rejected at its stage, the live snapshot byte-identical.
@Suite struct BundleGateRulesTests {
    static let screens = #"children = { { id = "home" }, { id = "about" } }"#

    @Test func endlessLoopsAtLoad() async throws {
        let apps = [
            "while true do end",
            "repeat local x = 1 until false",
            "::again:: goto again",
        ].map { BundleFixture().withApp("portolan.app { id = \"root\", \(Self.screens) }\n" + $0) }
        try await BundleGateTests.expectRejected(apps, at: .load, whicheverLimitTrips: true) { reason in
            // The budget ends each in well under a second of CPU; on a machine so busy that the loop gets
            // less than a tenth of a core, the load's time limit (10 s of wall time) ends it first.
            // Either names the looping line.
            switch reason {
            case .loadFailed(let message): return message.hasPrefix("app.lua:2: ") && message.contains("instruction budget")
            case .loadTimeLimit(let message): return message.hasPrefix("app.lua:2: ") && message.contains("did not finish within")
            default: return false
            }
        }
    }

    @Test func memoryBombsAtLoad() async throws {
        let apps = [
            #"local s = "x" while true do s = s .. s end"#,
            "local t = {} for i = 1, 1e9 do t[i] = i end",
            #"local s = string.rep("y", 1 << 20) local t = {} for i = 1, 1e9 do t[i] = s .. i end"#,
            "local t = {} for i = 1, 1e9 do t[i] = { i } end",
        ].map { BundleFixture().withApp($0 + "\nportolan.app { id = \"root\", \(Self.screens) }") }
        try await BundleGateTests.expectRejected(apps, at: .load, whicheverLimitTrips: true) { reason in
            // The memory cap ends each within a second; the load's time limit is the backstop on a busy machine.
            switch reason {
            case .loadFailed(let message): return message.contains("not enough memory")
            case .loadTimeLimit(let message): return message.contains("did not finish")
            default: return false
            }
        }
    }

    /// Issue 33, item 4: a load cut by the time limit says how busy this device was, not what the
    /// bundle is: refused, never quarantined, and the same bundle installs once the device has time.
    @Test func aLoadCutByTheTimeLimitIsRetriedNotQuarantined() async throws {
        // The load waits as long as the host's `delay` says: far past the time limit, then not at
        // all, so that no busy machine can make the limit and the wait finish in the other order.
        let fixture = BundleFixture().withApp("""
            local seconds = delay()
            if seconds > 0 then portolan.wait(seconds) end
            portolan.app { id = "root", \(Self.screens) }
            """)
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleGateTests.liveHost()
        let delay = Locked(3600)
        try await host.register(function: "delay") { _ in [.integer(Int64(delay.value))] }
        let hurried = BundleInstallOptions(store: BundleStore(directory: store.root), gate: .init(loadTimeLimit: .milliseconds(100)))
        let first = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: hurried).install(bundle: try fixture.bytes())
        guard case .rejected(.load, .loadTimeLimit(let message)) = first else {
            Issue.record("\(first.text)")
            return
        }
        #expect(message.contains("did not finish within"))
        #expect(!BundleRejectionReason.loadTimeLimit(message).isAboutTheBundle)
        delay.withLock { $0 = 0 }
        let patient = BundleInstallOptions(store: BundleStore(directory: store.root), gate: .init(loadTimeLimit: .seconds(120)))
        let again = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: patient).install(bundle: try fixture.bytes())
        guard case .accepted = again else {
            Issue.record("\(again.text)")
            return
        }
    }

    @Test func rulesThatDoNotLoad() async throws {
        let apps = [
            "portolan.app { id = ",
            "error('refused on purpose')",
            #"portolan.app { id = "root", children = { { id = "a" }, { id = "a" } } }"#,
        ].map { BundleFixture().withApp($0) }
        try await BundleGateTests.expectRejected(apps, at: .load) { reason in
            if case .loadFailed = reason { return true }
            return false
        }
    }

    @Test func lintErrors() async throws {
        let migrations = [
            #"[2] = { renamed = { a = "ghost" } }"#, #"[2] = { removed = { "home" } }"#,
            #"[2] = { moved = { home = { "nowhere" } } }"#,
        ]
        let apps = migrations.map { migration in
            BundleFixture().withApp("portolan.app { id = \"root\", version = 2, migrations = { \(migration) }, \(Self.screens) }")
        }
        try await BundleGateTests.expectRejected(apps, at: .lint) { reason in
            guard case .lintErrors(let findings) = reason, !findings.isEmpty else { return false }
            return findings.allSatisfy { $0.code == .invalidMigration && $0.file == "app.lua" && !$0.message.contains("/tmp") }
        }
    }

    @Test func failingScenarios() async throws {
        let scenarios = [
            #"scenario("wrong path", function() portolan.route { "root", "home" } expect(portolan.active_path(), { "root", "about" }) end)"#,
            #"scenario("unknown node", function() assert(portolan.route { "root", "nowhere" }) end)"#,
            #"scenario("raises", function() error("no") end)"#,
            // Issue 25: a scenario.only would narrow the gate to itself; the gate forbids it.
            #"scenario.only("focused", function() end)"#,
        ]
        let fixtures = scenarios.map { scenario in
            var fixture = BundleFixture()
            fixture.files["scenarios/about.lua"] = scenario
            return fixture
        }
        try await BundleGateTests.expectRejected(fixtures, at: .scenarios) { reason in
            guard case .scenariosFailed(let failures) = reason, failures.count == 1 else { return false }
            // Named by the bundle's path, not the unpacked directory's.
            return failures[0].hasPrefix("scenarios/about.lua: ")
        }
    }

    @Test func aScenarioThatLoopsIsCutByTheBudget() async throws {
        var fixture = BundleFixture()
        fixture.files["scenarios/about.lua"] = #"scenario("spins", function() portolan.wait(60) end)"#
        let outcome = try await BundleGateTests.outcome(
            try fixture.bytes(), key: fixture.publicKey, options: .init(scenarioBudget: .seconds(1)),
            // Where the budget cuts the scenario, which its message says, differs run to run.
            installAlike: { _ in true })
        guard case .rejected(.scenarios, _) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
    }

    /// Issue 33, item 7: the budget is for all the scenarios and holds while they run. Three files
    /// that each wait longer than it: the first is cut when the budget ends, the others never
    /// start, and the verdict is the budget (a busy device's, which quarantines nothing), not three
    /// scenarios that each failed at their own time limit after it had long passed.
    @Test func theBudgetForAllScenariosEndsThemWhileTheyRun() async throws {
        var fixture = BundleFixture()
        let files = ["scenarios/about.lua", "scenarios/b.lua", "scenarios/c.lua"]
        for file in files { fixture.files[file] = #"scenario("waits", function() portolan.wait(60) end)"# }
        fixture.manifest.scenarios = files
        let outcome = try await BundleGateTests.outcome(
            try fixture.bytes(), key: fixture.publicKey, options: .init(scenarioBudget: .seconds(1)), installAlike: { _ in true })
        guard case .rejected(.scenarios, .scenarioBudgetExceeded(_, let budget)) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(budget == .seconds(1))
    }
}
