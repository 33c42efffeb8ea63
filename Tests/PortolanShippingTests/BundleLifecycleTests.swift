import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// Issue 33, items 5 and 6: the store's floor rises only for rules whose canary passed, by a
/// bounded step, for the one slot of rules whatever the id; and a canary's watch outlives its
/// process: the next start resumes it, or, after three starts without a verdict, quarantines the
/// bundle and goes back to the known good, and says which.
@Suite struct BundleLifecycleTests {
    static let quickCanary = CanaryPolicy(routes: 2, maximumFailureRatio: 0)

    static func options(_ store: TemporaryDirectory, awaitsCanary: Bool = false) -> BundleInstallOptions {
        BundleInstallOptions(store: BundleStore(directory: store.root), awaitsCanary: awaitsCanary, canary: quickCanary)
    }

    /// A bundle of `id` and `version`, signed by `key`, whose rules add `news`, or fail every
    /// route to `home` when `failing`.
    static func bundle(id: String = "com.example.rules", version: Int, key: BundleSigningKey, failing: Bool = false) throws -> [UInt8] {
        var fixture = CanaryPolicyTests.bundle(
            failing
                ? #"portolan.app { id = "root", children = { { id = "home", enter = function() error("broken") end }, { id = "about" } } }"#
                : CanaryPolicyTests.goodApp,
            canary: CanarySettings(routes: 0, maximumFailureRatio: 1), version: version)
        fixture.key = key
        fixture.manifest.id = id
        return try fixture.bytes()
    }

    /// Installs `bytes` and, once the canary watches, routes until its verdict; that verdict, or
    /// the install's refusal.
    static func installAndRoute(_ bytes: [UInt8], key: BundleSigningKey, on host: PortolanHost, _ store: TemporaryDirectory) async -> BundleInstallOutcome {
        let updater = RulesUpdater(host: host, publicKey: key.publicKey, options: options(store, awaitsCanary: true))
        var outcomes = updater.outcomes().makeAsyncIterator()
        let install = Task { await updater.install(bundle: bytes) }
        // The first outcome is the swap's (the canary watching) or the refusal: the install returns that.
        if case .accepted(_, .watching(let routes))? = await outcomes.next() {
            for _ in 0..<routes where await host.isSwapWatched {
                _ = await host.route(.path(["root", "home"]))
            }
        }
        return await install.value
    }

    @Test func aRevertedReleaseDoesNotRaiseTheFloor() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey(), host = try await BundleInstallTests.liveHost()
        let highest = await Self.installAndRoute(try Self.bundle(version: Int(Int32.max), key: key, failing: true), key: key, on: host, store)
        #expect(highest.name == "reverted", "\(highest.text)")
        #expect(BundleStore(directory: store.root).floor == nil)
        let next = await Self.installAndRoute(try Self.bundle(version: 3, key: key), key: key, on: host, store)
        #expect(next == .accepted(try RulesBundle.read(Self.bundle(version: 3, key: key)).get().manifest, canary: .passed(routes: 2)), "\(next.text)")
        #expect(BundleStore(directory: store.root).floor == 3)
    }

    @Test func oneReleaseJumpsAtMostTheMaximumStep() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey(), host = try await BundleInstallTests.liveHost()
        #expect(await Self.installAndRoute(try Self.bundle(version: 2, key: key), key: key, on: host, store).name == "accepted")
        let far = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store)).install(bundle: try Self.bundle(version: 1003, key: key))
        #expect(far == .rejected(stage: .integrity, reason: .versionJump(offered: 1003, floor: 2, maximumStep: 1000)))
        #expect(!BundleStore(directory: store.root).isQuarantined(.init(id: "com.example.rules", version: 1003)))
        #expect(await Self.installAndRoute(try Self.bundle(version: 1002, key: key), key: key, on: host, store).name == "accepted")
    }

    /// A staging build signed by the same key, with an id of its own, is not a way around the floor.
    @Test func anotherIDBelowTheFloorIsAReplay() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey(), host = try await BundleInstallTests.liveHost()
        #expect(await Self.installAndRoute(try Self.bundle(version: 5, key: key), key: key, on: host, store).name == "accepted")
        let staging = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store)).install(bundle: try Self.bundle(id: "com.example.staging", version: 4, key: key))
        #expect(staging == .rejected(stage: .integrity, reason: .replayedVersion(id: "com.example.staging", offered: 4, installed: 5)))
    }

    /// The process dies while the canary watches: the next start resumes the watch (the store has
    /// no known good yet), the same bundle offered again is a replay, and once the resumed canary
    /// passes it is the known good, which the start after installs as such.
    @Test func aWatchTheProcessDidNotOutliveResumesAtTheNextStart() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey(), bytes = try Self.bundle(version: 2, key: key)
        let manifest = try RulesBundle.read(bytes).get().manifest
        let dying = try await BundleInstallTests.liveHost()
        #expect(await RulesUpdater(host: dying, publicKey: key.publicKey, options: Self.options(store)).install(bundle: bytes) == .accepted(manifest, canary: .watching(routes: 2)))
        // The process dies here: a new host starts on the same store.
        let restarted = try await BundleInstallTests.liveHost()
        let started = await RulesUpdater(host: restarted, publicKey: key.publicKey, options: Self.options(store)).installKnownGood()
        #expect(started == .accepted(manifest, canary: .resumed(routes: 2, starts: 1)), "\(started?.text ?? "nil")")
        #expect(started?.text.contains("canary resumed after a restart") == true)
        #expect(await restarted.isSwapWatched)
        #expect(await RulesUpdater(host: restarted, publicKey: key.publicKey, options: Self.options(store)).install(bundle: bytes)
            == .rejected(stage: .integrity, reason: .replayedVersion(id: manifest.id, offered: 2, installed: 2)))
        for _ in 0..<2 { _ = await restarted.route(.path(["root", "news"])) }
        #expect(await !restarted.isSwapWatched)
        let storeNow = BundleStore(directory: store.root)
        #expect(storeNow.knownGood == bytes && storeNow.floor == 2 && storeNow.watch == nil)
        let third = try await BundleInstallTests.liveHost()
        #expect(await RulesUpdater(host: third, publicKey: key.publicKey, options: Self.options(store)).installKnownGood() == .accepted(manifest, canary: .knownGood))
    }

    /// Three starts without a verdict: the bundle is quarantined (announced at stage 8), and the
    /// known good serves, as the outcome says.
    @Test func aWatchNoStartLivesToEndIsQuarantinedAndTheKnownGoodServes() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey()
        let good = try Self.bundle(version: 2, key: key), watched = try Self.bundle(version: 3, key: key)
        let goodManifest = try RulesBundle.read(good).get().manifest
        #expect(await Self.installAndRoute(good, key: key, on: try await BundleInstallTests.liveHost(), store).name == "accepted")
        _ = await RulesUpdater(host: (try await BundleInstallTests.liveHost()), publicKey: key.publicKey, options: Self.options(store)).install(bundle: watched)
        for start in 1...2 {
            let host = try await BundleInstallTests.liveHost()
            let started = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store)).installKnownGood()
            guard case .accepted(_, .resumed(_, let starts))? = started else {
                Issue.record("start \(start): \(started?.text ?? "nil")")
                return
            }
            #expect(starts == start)
        }
        let last = try await BundleInstallTests.liveHost()
        let updater = RulesUpdater(host: last, publicKey: key.publicKey, options: Self.options(store))
        let outcomes = updater.outcomes()
        let started = await updater.installKnownGood()
        #expect(started == .accepted(goodManifest, canary: .knownGood), "\(started?.text ?? "nil")")
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next() == .rejected(stage: .canary, reason: .canaryNeverEnded(starts: 3)))
        let storeNow = BundleStore(directory: store.root)
        #expect(storeNow.isQuarantined(.init(id: goodManifest.id, version: 3)) && storeNow.watch == nil && storeNow.floor == 2)
    }
}
