import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// Issue 33, item 3: a canary's revert depends on nothing the failing rules control. It puts back
/// what the swap set aside, whatever those rules left in `portolan.state` or do in their
/// handlers; and when it cannot put all back, the outcome says so, and what serves then.
@Suite struct CanaryRevertTests {
    /// Rules whose `about` will not leave, and spoils the state as it refuses: it leaves a
    /// function and a table with a metatable there, which no snapshot can take, and locks a
    /// metatable of its own on the state itself, which would answer every read of a missing key.
    static let failingApp = """
        portolan.initial_state { visits = 0 }
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "about", leave = function()
            portolan.state.callback = function() end
            portolan.state.odd = setmetatable({}, { __index = function() error("read through the metatable") end })
            portolan.state.visits = 99
            setmetatable(portolan.state, { __metatable = "mine", __index = function(_, key) return "forged " .. key end })
            error("about will not leave")
          end },
          { id = "news" },
        } }
        """

    static let policy = CanaryPolicy(routes: 10, maximumFailureRatio: 0.2)

    /// Installs `failingApp` on `host`, then routes to `news` until the canary's verdict is in;
    /// that verdict.
    static func failCanary(on host: PortolanHost, store: TemporaryDirectory) async throws -> BundleInstallOutcome? {
        let fixture = CanaryPolicyTests.bundle(failingApp, canary: CanarySettings(routes: 10, maximumFailureRatio: 0.2))
        let options = BundleInstallOptions(store: BundleStore(directory: store.root), canary: policy)
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: options)
        let outcomes = updater.outcomes()
        let installed = await updater.install(bundle: try fixture.bytes())
        guard case .accepted(_, .watching) = installed else {
            Issue.record("\(installed.text)")
            return nil
        }
        var routed = 0
        while await host.isSwapWatched && routed < 10 {
            routed += 1
            _ = await host.route(.path(["root", "news"]))
        }
        var iterator = outcomes.makeAsyncIterator()
        guard await iterator.next()?.name == "accepted" else { return nil }
        return await iterator.next()
    }

    @Test func rulesThatSpoilTheStateAndWillNotLeaveAreRevertedAll() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await BundleInstallTests.liveHost()
        guard case .reverted(_, let failing)? = try await Self.failCanary(on: host, store: store) else {
            Issue.record("the failing rules were not reverted")
            return
        }
        #expect(failing.count == 3, "\(failing)")
        #expect(await BundleInstallTests.activeIDs(host) == ["root", "about"], "the user is where the swap found them")
        let state = try await host.run(
            "return portolan.state.visits, type(portolan.state.callback), type(portolan.state.odd), getmetatable(portolan.state)",
            chunkName: "=test")
        #expect(state == ["3", #""nil""#, #""nil""#, "nil"], "the state as it was before the swap")
        #expect(await host.route(.path(["root", "home"])).isSuccess, "the previous rules serve: their screens leave")
        guard case .failure(let failure) = await host.route(.path(["root", "news"])) else {
            Issue.record("the failing rules' screen is still there")
            return
        }
        #expect(failure.kind == .unreachable, "\(failure)")
        #expect(try await host.snapshotBytes().count > 0, "the state is plain data again: a snapshot can be taken")
    }

    /// A host whose rules came from no source (a script run in it) has nothing to revert to: the
    /// outcome says the revert failed, and that the failing rules stay, unwatched.
    @Test func aRevertWithNothingToGoBackToSaysSo() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await PortolanHost.quiet()
        _ = try await host.run(BundleInstallTests.liveApp, chunkName: "=embedded")
        _ = await host.route(.path(["root", "about"]))
        let outcome = try await Self.failCanary(on: host, store: store)
        guard case .revertFailed(let manifest, let failing, let problem)? = outcome else {
            Issue.record("a revert with nothing to go back to was not reported as failed: \(outcome?.text ?? "no outcome")")
            return
        }
        #expect(failing.count == 3)
        #expect(problem.contains("stay in service, unwatched"), "\(problem)")
        #expect(BundleStore(directory: store.root).isQuarantined(.init(id: manifest.id, version: manifest.version)))
        #expect(await !host.isSwapWatched)
    }
}
