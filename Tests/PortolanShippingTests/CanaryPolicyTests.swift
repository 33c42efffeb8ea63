import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// Issue 33, item 2: the canary's policy is the app's. A manifest may only tighten it; every way
/// rules can fail a user's route counts, denials included; and a canary another install ends is
/// undecided, never passed.
@Suite struct CanaryPolicyTests {
    /// A bundle with no scenarios whose rules are `app`.
    static func bundle(_ app: String, canary: CanarySettings = .init(), version: Int = 2) -> BundleFixture {
        var fixture = BundleFixture().withApp(app)
        fixture.files["scenarios/about.lua"] = nil
        fixture.manifest.scenarios = []
        fixture.manifest.canary = canary
        fixture.manifest.version = version
        return fixture
    }

    static let goodApp = #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }"#

    @Test func aManifestOnlyTightensThePolicy() throws {
        let policy = CanaryPolicy(routes: 20, maximumFailureRatio: 0.1)
        #expect(policy.tightened(by: CanarySettings(routes: 0, maximumFailureRatio: 1)) == policy)
        #expect(policy.tightened(by: CanarySettings(routes: 50, maximumFailureRatio: 0.02))
            == CanaryPolicy(routes: 50, maximumFailureRatio: 0.02))
        #expect(CanaryPolicy(routes: -3, maximumFailureRatio: .nan) == CanaryPolicy(routes: 0, maximumFailureRatio: 0))
    }

    @Test func aBundleThatAsksForNoCanaryIsWatchedAsTheAppSays() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        for (index, settings) in [CanarySettings(routes: 0, maximumFailureRatio: 0), CanarySettings(routes: 20, maximumFailureRatio: 1)].enumerated() {
            let fixture = Self.bundle(Self.goodApp, canary: settings, version: 2 + index)
            let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root), canary: CanaryPolicy(routes: 7))).install(bundle: try fixture.bytes())
            guard case .accepted(_, .watching(routes: let routes)) = outcome else {
                Issue.record("\(outcome.text)")
                return
            }
            #expect(routes == max(7, settings.routes))
            #expect(BundleStore(directory: store.root).knownGood == nil, "known good before any route")
        }
    }

    /// Rules that deny the user's routes (here every route to `home`, so that the screen the user
    /// is on passes the swap's guards) must not pass: a denial counts.
    @Test func rulesThatDenyTheUsersRoutesFailTheCanary() async throws {
        let host = try await BundleInstallTests.liveHost()
        let app = """
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }
            portolan.intercept(function(request) if request:goes_to("home") then return portolan.deny("closed") end end)
            """
        let verdict = try await Self.verdict(of: app, policy: CanaryPolicy(routes: 10, maximumFailureRatio: 0.2), on: host)
        guard case .reverted(_, let failing)? = verdict else {
            Issue.record("denials passed the canary")
            return
        }
        // A fifth of 10 routes may fail: the third denial reverts.
        #expect(failing.count == 3 && failing.allSatisfy { $0.kind == .denied }, "\(failing)")
        #expect(await host.route(.path(["root", "home"])).isSuccess, "the rules before are back")
    }

    /// Installs `app` (whose manifest asks for `settings`) on `host` with the app's `policy`,
    /// routes the user to `home` and `about` in turn until the canary's verdict; that verdict (nil,
    /// with an issue recorded, when the install was refused). The store is thrown away.
    static func verdict(
        of app: String, policy: CanaryPolicy, settings: CanarySettings = CanarySettings(routes: 0, maximumFailureRatio: 1),
        on host: PortolanHost? = nil
    ) async throws -> BundleInstallOutcome? {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let fixture = Self.bundle(app, canary: settings)
        let host = if let host { host } else { try await BundleInstallTests.liveHost() }
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root), canary: policy))
        let outcomes = updater.outcomes()
        let installed = await updater.install(bundle: try fixture.bytes())
        guard case .accepted = installed else {
            Issue.record("\(installed.text)")
            return nil
        }
        var routed = 0
        while await host.isSwapWatched && routed < 3 * policy.routes {
            routed += 1
            _ = await host.route(.path(["root", routed.isMultiple(of: 2) ? "about" : "home"]))
        }
        var iterator = outcomes.makeAsyncIterator()
        guard await iterator.next()?.name == "accepted" else { return nil }
        return await iterator.next()
    }

    /// Rules whose interceptor sends every route to `about` elsewhere: the user never gets there,
    /// and a redirect counts as a failure, by default.
    static let redirectingApp = """
        portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }
        portolan.intercept(function(request) if request:goes_to("about") then return portolan.redirect { "root", "news" } end end)
        """

    @Test func rulesThatRedirectTheUsersRoutesElsewhereFailTheCanary() async throws {
        guard case .reverted(_, let failing)? = try await Self.verdict(of: Self.redirectingApp, policy: CanaryPolicy(routes: 10, maximumFailureRatio: 0.2)) else {
            Issue.record("redirects passed the canary")
            return
        }
        #expect(failing.count == 3 && failing.allSatisfy { $0.redirectedTo == "root > news" && $0.kind == nil }, "\(failing)")
        #expect(failing.first?.description == "root > about (redirected): redirected to root > news")
        // An app whose rules redirect by design says so.
        let lenient = try await Self.verdict(of: Self.redirectingApp, policy: CanaryPolicy(routes: 10, maximumFailureRatio: 0.2, countsRedirects: false))
        #expect(lenient?.name == "accepted", "\(lenient?.text ?? "no verdict")")
    }

    /// Rules that queue a failing route of their own after each of the user's: those routes say
    /// nothing of what the user met, and do not count, neither as routes nor as failures.
    @Test func routesTheRulesQueueThemselvesDoNotCount() async throws {
        let app = """
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "broken", enter = function() error("no") end } } }
            portolan.on("did_route", function()
              local path = portolan.active_path()
              if path[#path] ~= "broken" then portolan.route { "root", "broken" } end
            end)
            """
        let verdict = try await Self.verdict(of: app, policy: CanaryPolicy(routes: 6, maximumFailureRatio: 0))
        #expect(verdict?.text == "accepted: com.example.rules version 2 (canary passed 6 routes)", "\(verdict?.text ?? "no verdict")")
    }

    /// Rules that look at their own chunk name (in an error message) to tell the gate from the live
    /// host, and break only live. The gate runs them where the live host will, so their scenario
    /// fails there, before the swap.
    @Test func rulesCannotTellTheGateFromTheLiveHostByTheirChunkNames() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        let fixture = BundleFixture().withApp("""
            local function here() error("here") end
            local _, message = pcall(here)
            local live = message:find("/rules/com.example.rules@2/app.lua", 1, true) ~= nil
            portolan.app { id = "root", children = {
              { id = "home" }, { id = "about", enter = function() if live then error("breaks only live") end end } } }
            """)
        let outcome = await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root))).install(bundle: try fixture.bytes())
        guard case .rejected(.scenarios, .scenariosFailed(let failures)) = outcome else {
            Issue.record("rules that break only live passed the gate: \(outcome.text)")
            return
        }
        #expect(failures.first?.contains("breaks only live") == true, "\(failures)")
    }

    @Test func aCanaryEndedByAnotherInstallIsUndecided() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        let options = BundleInstallOptions(store: BundleStore(directory: store.root))
        let fixture = Self.bundle(Self.goodApp, version: 2)
        var next = fixture   // the same key
        next.manifest.version = 3
        let first = try fixture.bytes(), second = try next.bytes()
        let firstManifest = try RulesBundle.read(first).get().manifest
        let secondManifest = try RulesBundle.read(second).get().manifest
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: options)
        let outcomes = updater.outcomes()
        _ = await updater.install(bundle: first)
        _ = await host.route(.path(["root", "news"]))
        _ = await updater.install(bundle: second)
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next() == .accepted(firstManifest, canary: .watching(routes: 20)))
        #expect(await iterator.next() == .accepted(firstManifest, canary: .undecided(routes: 1)))
        #expect(await iterator.next() == .accepted(secondManifest, canary: .watching(routes: 20)))
        #expect(BundleStore(directory: store.root).knownGood == nil, "a canary that never decided made nothing known good")
        #expect(!BundleStore(directory: store.root).isQuarantined(.init(id: firstManifest.id, version: 2)))
    }
}
