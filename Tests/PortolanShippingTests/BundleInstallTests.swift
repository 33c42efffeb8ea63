import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// `host.install`: a bundle that passes is swapped in with the tree and `portolan.state` kept,
/// the canary reverts one that fails its routes within 20 routes, naming them, and the store keeps
/// the known good and the quarantine across a restart of the host.
@Suite struct BundleInstallTests {
    /// The rules embedded in the live app: two screens.
    static let liveApp = """
        local state = portolan.initial_state { visits = 0 }
        portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }
        """

    /// A live host on `root > about`, with 3 visits in its state.
    static func liveHost(_ configuration: HostConfiguration = .init()) async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: liveApp, configuration: configuration)
        _ = await host.route(.path(["root", "about"]))
        _ = try await host.run("portolan.state.visits = 3", chunkName: "=test")
        return host
    }

    /// A bundle whose rules add a screen, `news`, and whose scenario passes. They name the state's
    /// `visits` as the rules in service do: a key the new rules no longer named would be dropped.
    static func newsBundle(version: Int = 2) -> BundleFixture {
        var fixture = BundleFixture().withApp("""
            portolan.initial_state { visits = 0 }
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }
            """)
        fixture.manifest.version = version
        return fixture
    }

    static func options(_ store: TemporaryDirectory, awaitsCanary: Bool = false) -> BundleInstallOptions {
        BundleInstallOptions(store: BundleStore(directory: store.root), awaitsCanary: awaitsCanary)
    }

    static func activeIDs(_ host: PortolanHost) async -> [String] {
        await host.router?.activePath.map(\.id) ?? []
    }

    @Test func aGoodBundleIsSwappedInWithTheTreeAndTheStateKept() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await Self.liveHost()
        let fixture = Self.newsBundle()
        let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: try fixture.bytes())
        guard case .accepted(let manifest, .watching(routes: 20)) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(manifest.id == "com.example.rules" && manifest.version == 2)
        #expect(await Self.activeIDs(host) == ["root", "about"])
        #expect(try await host.run("return portolan.state.visits", chunkName: "=test") == ["3"])
        #expect(await host.route(.path(["root", "news"])).isSuccess, "the new rules serve")
        #expect(await host.appFile == BundleStore(directory: store.root).rulesDirectory(for: .init(id: manifest.id, version: 2)) + "/app.lua")
        #expect(BundleStore(directory: store.root).floor == nil, "the floor rises only once the canary passed")
        #expect(BundleStore(directory: store.root).watch?.identity == .init(id: manifest.id, version: 2))
    }

    @Test func aBundleThatFailsItsRoutesIsRevertedWithinTwentyRoutesNamingThem() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await Self.liveHost()
        var fixture = BundleFixture().withApp("""
            portolan.app { id = "root", children = {
              { id = "home", enter = function() error("home is broken") end }, { id = "about" } } }
            """)
        fixture.files["scenarios/about.lua"] = nil
        fixture.manifest.scenarios = []
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: Self.options(store))
        let outcomes = updater.outcomes()
        let outcome = await updater.install(bundle: try fixture.bytes())
        #expect(outcome.name == "accepted", "\(outcome.text)")
        var routed = 0
        while await host.isSwapWatched && routed < 40 {
            routed += 1
            _ = await host.route(.path(["root", routed.isMultiple(of: 2) ? "about" : "home"]))
        }
        #expect(routed <= 20, "reverted after \(routed) routes")
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next()?.name == "accepted")
        guard case .reverted(let manifest, let failing)? = await iterator.next() else {
            Issue.record("no revert")
            return
        }
        // The allowance of 10% of 20 routes is 2 failures: the third reverts.
        #expect(failing.count == 3 && failing.allSatisfy { $0.route == "root > home" && $0.kind == .handlerFailed })
        #expect(failing.first?.message.contains("home is broken") == true)
        #expect(BundleStore(directory: store.root).isQuarantined(.init(id: manifest.id, version: manifest.version)))
        // The rules embedded in the app are back, with the tree and the state carried back.
        #expect(await Self.activeIDs(host) == ["root", "about"])
        #expect(await host.appFile == nil, "the embedded rules were given as text")
        #expect(await host.route(.path(["root", "home"])).isSuccess)
        #expect(try await host.run("return portolan.state.visits", chunkName: "=test") == ["3"])
        let again = await updater.install(bundle: try fixture.bytes())
        #expect(again == .rejected(stage: .integrity, reason: .quarantined(id: manifest.id, version: manifest.version)))
    }

    @Test func aCanaryThatPassesMakesTheBundleTheKnownGoodTheNextStartInstalls() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await Self.liveHost()
        let fixture = Self.newsBundle()
        let bytes = try fixture.bytes()
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: Self.options(store, awaitsCanary: true))
        let outcomes = updater.outcomes()
        let install = Task { await updater.install(bundle: bytes) }
        // Once swapped in (announced as watching), 20 routes that pass: the install waits for them.
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next() == .accepted(try #require(RulesBundle.read(bytes).get()).manifest, canary: .watching(routes: 20)))
        for routed in 1...20 {
            #expect(await host.route(.path(["root", routed.isMultiple(of: 2) ? "news" : "home"])).isSuccess)
        }
        let outcome = await install.value
        guard case .accepted(_, .passed(routes: 20)) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(BundleStore(directory: store.root).knownGood == bytes)
        // A restart: a new host with the embedded rules installs the known good.
        let restarted = try await PortolanHost.quiet(loading: Self.liveApp)
        let started = await RulesUpdater(host: restarted, publicKey: fixture.publicKey, options: Self.options(store)).installKnownGood()
        #expect(started == .accepted(try RulesBundle.read(bytes).get().manifest, canary: .knownGood), "\(started?.text ?? "nil")")
        #expect(await restarted.route(.path(["root", "news"])).isSuccess)
        // With an empty store the embedded rules stay.
        let empty = try TemporaryDirectory("store")
        defer { empty.remove() }
        #expect(await RulesUpdater(host: restarted, publicKey: fixture.publicKey, options: Self.options(empty)).installKnownGood() == nil)
    }

    @Test func aQuarantinedBundleIsInstalledZeroTimesAcrossARestart() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        var fixture = Self.newsBundle()
        fixture.files["scenarios/about.lua"] = #"scenario("fails", function() error("no") end)"#
        let bytes = try fixture.bytes()
        let first = try await Self.liveHost()
        let rejected = await RulesUpdater(host: first, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: bytes)
        guard case .rejected(.scenarios, .scenariosFailed) = rejected else {
            Issue.record("\(rejected.text)")
            return
        }
        // Another instance of the host on the same store: offered it again and again, never installed.
        let second = try await Self.liveHost()
        let before = try await second.snapshotBytes()
        for _ in 0..<3 {
            let outcome = await RulesUpdater(host: second, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: bytes)
            #expect(outcome == .rejected(stage: .integrity, reason: .quarantined(id: "com.example.rules", version: 2)))
        }
        #expect(try await second.snapshotBytes() == before)
        #expect(await second.route(.path(["root", "news"])).isSuccess == false, "its rules never served")
        #expect(BundleStore(directory: store.root).knownGood == nil)
    }

    @Test func aReplayedOlderVersionIsRefusedAcrossARestart() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        var fixture = Self.newsBundle(version: 3)
        let host = try await Self.liveHost()
        #expect(await RulesUpdater(host: host, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: try fixture.bytes()).name == "accepted")
        let restarted = try await Self.liveHost()
        for version in [3, 2, 1] {
            fixture.manifest.version = version
            for target in [host, restarted] {
                let before = try await target.snapshotBytes()
                let outcome = await RulesUpdater(host: target, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: try fixture.bytes())
                #expect(outcome == .rejected(stage: .integrity, reason: .replayedVersion(id: "com.example.rules", offered: version, installed: 3)))
                #expect(try await target.snapshotBytes() == before)
            }
        }
        fixture.manifest.version = 4
        #expect(await RulesUpdater(host: restarted, publicKey: fixture.publicKey, options: Self.options(store)).install(bundle: try fixture.bytes()).name == "accepted")
    }
}
