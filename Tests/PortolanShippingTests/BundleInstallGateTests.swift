import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// `host.install`'s own stages: the migration dry run (6), the contract scenarios the host pins,
/// the live host's functions in the gate's hosts, and the swap between two routes (7).
@Suite struct BundleInstallGateTests {
    /// `fixture` without scenarios, with `app` as its rules.
    static func rules(_ app: String) -> BundleFixture {
        var fixture = BundleFixture().withApp(app)
        fixture.files["scenarios/about.lua"] = nil
        fixture.manifest.scenarios = []
        return fixture
    }

    /// Installs on a live host on `root > about`: the outcome, the live snapshot identical when rejected.
    static func install(_ fixture: BundleFixture, contract: [String] = []) async throws -> BundleInstallOutcome {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        let before = try await host.snapshotBytes()
        let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root), contract: contract)).install(bundle: try fixture.bytes())
        if outcome.name == "rejected" { #expect(try await host.snapshotBytes() == before, "the live tree changed") }
        return outcome
    }

    @Test func migrationsThatLoseTheActiveScreenWithoutSayingSoAreRejectedAtStageSix() async throws {
        let apps = [
            // Gone.
            #"portolan.app { id = "root", children = { { id = "home" } } }"#,
            // Renamed, with no migration that says so.
            #"portolan.app { id = "root", version = 2, children = { { id = "home" }, { id = "info" } } }"#,
            // Moved below another screen, with no migration that says so.
            #"portolan.app { id = "root", children = { { id = "home", children = { { id = "about" } } } } }"#,
        ]
        for app in apps {
            let outcome = try await Self.install(Self.rules(app))
            guard case .rejected(.migration, .activeScreenLost(screen: "about", _)) = outcome else {
                Issue.record("\(app): \(outcome.text)")
                continue
            }
        }
    }

    @Test func migrationsThatSaySoAreAccepted() async throws {
        let apps = [
            #"portolan.app { id = "root", version = 2, migrations = { [2] = { removed = { "about" } } }, children = { { id = "home" } } }"#,
            #"portolan.app { id = "root", version = 2, migrations = { [2] = { renamed = { about = "info" } } }, children = { { id = "home" }, { id = "info" } } }"#,
            #"portolan.app { id = "root", version = 2, migrations = { [2] = { moved = { about = { "home" } } } }, children = { { id = "home", children = { { id = "about" } } } } }"#,
        ]
        for app in apps {
            let outcome = try await Self.install(Self.rules(app))
            #expect(outcome.name == "accepted", "\(app): \(outcome.text)")
        }
    }

    @Test func aMigrationTheRulesDeclareIncompatibleIsRefusedAtStageSix() async throws {
        let app = #"portolan.app { id = "root", version = 2, migrations = { [2] = { incompatible = true } }, children = { { id = "home" }, { id = "about" } } }"#
        let outcome = try await Self.install(Self.rules(app))
        guard case .rejected(.migration, .migrationRefused) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
    }

    @Test func theHostsContractScenariosRunWithTheBundles() async throws {
        let contract = try TemporaryDirectory("contract", files: [
            "home.lua": #"scenario("home always opens", function() assert(portolan.route { "root", "home" }) end)"#,
        ])
        defer { contract.remove() }
        let withoutHome = Self.rules(#"portolan.app { id = "root", children = { { id = "about" }, { id = "news" } } }"#)
        let outcome = try await Self.install(withoutHome, contract: [contract.path("home.lua")])
        guard case .rejected(.scenarios, .contractFailed(let failures)) = outcome, failures.count == 1 else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(failures[0].hasPrefix(contract.path("home.lua") + ": home always opens: "))
        let good = try await Self.install(BundleInstallTests.newsBundle(), contract: [contract.path("home.lua")])
        #expect(good.name == "accepted", "\(good.text)")
    }

    @Test func theGatesHostsHaveTheLiveHostsFunctions() async throws {
        var fixture = BundleFixture().withApp("""
            local greeting = greet("gate")
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }
            """)
        fixture.files["scenarios/about.lua"] = #"scenario("greets", function() expect(greet("scenario"), "hello scenario") end)"#
        fixture.manifest.requires = BundleRequirements(functions: ["greet"])
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        try await host.register(function: "greet") { arguments in [.string("hello " + (arguments.first?.stringValue ?? ""))] }
        let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root))).install(bundle: try fixture.bytes())
        #expect(outcome.name == "accepted", "\(outcome.text)")
    }

    @Test func aSwapThatFailsInTheLiveHostLeavesEverythingAsItWas() async throws {
        // The function answers the gate's load and lint, then fails: the live load is the third call.
        let calls = Locked(0)
        var fixture = Self.rules("""
            assert(ready(), "not ready")
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }
            """)
        fixture.manifest.requires = BundleRequirements(functions: ["ready"])
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        try await host.register(function: "ready") { _ in
            [.boolean(calls.withLock { count in
                count += 1
                return count <= 2
            })]
        }
        let before = try await host.snapshotBytes()
        let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root))).install(bundle: try fixture.bytes())
        guard case .rejected(.swap, .swapFailed(let reason)) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(reason.contains("not ready") && calls.value == 3, "\(reason)")
        #expect(try await host.snapshotBytes() == before)
        #expect(await host.route(.path(["root", "news"])).isSuccess == false, "the previous rules serve")
        #expect(await host.route(.path(["root", "home"])).isSuccess)
        // What failed is this host's (its function), not the bundle's bytes: a later install may
        // succeed, so the bundle is not quarantined (issue 33, item 4).
        #expect(!BundleStore(directory: store.root).isQuarantined(.init(id: "com.example.rules", version: 2)))
    }
}
