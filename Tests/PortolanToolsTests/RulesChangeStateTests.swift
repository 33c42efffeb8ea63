import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools
import TestSupport
import Testing

/// What a rules change does to `portolan.state` (issue 32): a key the new rules name with
/// `portolan.initial_state` that the session's state lacks takes its first value, whether the
/// rules change by a reload, by a snapshot restored under them, or by a bundle's swap; keys both
/// know keep the session's value. Before, a restore and a swap put the old state back over the new
/// rules, the new key was nil, and a guard that read it failed ("attempt to compare nil with
/// number"): the commonest rules change could not ship as a bundle.
@Suite struct RulesChangeStateTests {
    /// Version 1: the state counts visits.
    static let rulesBefore = """
        portolan.initial_state { visits = 0 }
        portolan.app { id = "root", version = 1, children = { { id = "home" }, { id = "about" } } }
        """

    /// Version 2 adds `credits`, which a guard of every screen reads.
    static let rulesAfter = """
        local state = portolan.initial_state { visits = 0, credits = 5 }
        local function needs_credits()
          if state.credits < 1 then return portolan.deny("no credits left") end
        end
        portolan.app { id = "root", version = 2, children = {
          { id = "home", guard = needs_credits }, { id = "about", guard = needs_credits } } }
        """

    /// A host on the rules before, on `root > about`, with 3 visits.
    static func hostBefore() async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: rulesBefore)
        _ = await host.route(.path(["root", "about"]))
        _ = try await host.run("portolan.state.visits = 3", chunkName: "=test")
        return host
    }

    static func state(_ host: PortolanHost) async throws -> [String] {
        try await host.run("return portolan.state.visits, portolan.state.credits", chunkName: "=test")
    }

    @Test func aReloadGivesTheNewKeyItsFirstValue() async throws {
        let host = try await Self.hostBefore()
        let reloaded = try await host.reload(.source(Self.rulesAfter, chunkName: "app.lua"))
        #expect(reloaded.changes == [.stateKeyAdded("credits")], "reported as a restore reports it")
        #expect(try await Self.state(host) == ["3", "5"])
        #expect(await host.route(.path(["root", "home"])).isSuccess)
    }

    @Test func aSnapshotOfTheRulesBeforeRestoredUnderTheRulesAfterGetsTheNewKey() async throws {
        let saved = try await Self.hostBefore().snapshotBytes()
        let host = try await PortolanHost.quiet(loading: Self.rulesAfter)
        let outcome = await host.restore(saved)
        #expect(outcome.name == "migrated", "\(outcome)")
        #expect(outcome.changes == [.stateKeyAdded("credits")], "\(outcome)")
        #expect(outcome.description.contains("added portolan.state.credits with its initial value"), "\(outcome)")
        #expect(await host.router?.activePath.map(\.id) == ["root", "about"])
        #expect(try await Self.state(host) == ["3", "5"])
        #expect(await host.route(.path(["root", "home"])).isSuccess, "the guard reads the key")
        // `snapshot migrate` counts it as declared: the saved state survives.
        #expect(outcome.changes.allSatisfy { $0.isDeclared })
    }

    @Test func underTheRulesThatWroteItAKeyTheSessionClearedStaysCleared() async throws {
        let host = try await PortolanHost.quiet(loading: Self.rulesAfter)
        _ = try await host.run("portolan.state.credits = nil", chunkName: "=test")
        let saved = try await host.snapshotBytes()
        let outcome = await host.restore(saved)
        #expect(outcome.name == "restored", "\(outcome)")
        #expect(try await Self.state(host) == ["0", "nil"])
    }

    @Test func aRefusedRestorePutsBackTheStateExactly() async throws {
        let host = try await PortolanHost.quiet(loading: Self.rulesAfter)
        _ = try await host.run("portolan.state.credits = nil", chunkName: "=test")
        var document = try SnapshotReader.document(from: try await Self.hostBefore().snapshotBytes()).get()
        // A guard of the rules after denies the restored path: the restore is refused.
        document.state = .object(["visits": .number(3), "credits": .number(0)])
        let outcome = await host.restore(document)
        #expect(outcome.name == "refused", "\(outcome)")
        #expect(try await Self.state(host) == ["0", "nil"])
    }

    @Test func aBundleThatAddsAStateKeyInstallsAndItsCanaryPasses() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await Self.hostBefore()
        var fixture = BundleFixture().withApp(Self.rulesAfter)
        fixture.manifest.version = 2
        let bytes = try fixture.bytes()
        let options = BundleInstallOptions(store: BundleStore(directory: store.root), awaitsCanary: true)
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: options)
        let outcomes = updater.outcomes()
        let install = Task { await updater.install(bundle: bytes) }
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next()?.name == "accepted")
        for routed in 1...20 {
            #expect(await host.route(.path(["root", routed.isMultiple(of: 2) ? "about" : "home"])).isSuccess)
        }
        let outcome = await install.value
        guard case .accepted(_, .passed(routes: 20)) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(try await Self.state(host) == ["3", "5"])
        #expect(BundleStore(directory: store.root).knownGood == bytes)
    }

    // MARK: A key the new rules no longer name

    /// Version 3 names `visits` only: the `coupon` that version 2 named goes.
    static let rulesWithACoupon = """
        portolan.initial_state { visits = 0, coupon = "WELCOME" }
        portolan.app { id = "root", version = 2, children = { { id = "home" }, { id = "about" } } }
        """
    static let rulesWithoutTheCoupon = """
        portolan.initial_state { visits = 0 }
        portolan.app { id = "root", version = 3, children = { { id = "home" }, { id = "about" } } }
        """

    /// A host on the rules with the coupon, whose session also keeps a key of its own, `note`.
    static func hostWithACoupon() async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: rulesWithACoupon)
        _ = try await host.run("portolan.state.visits = 3; portolan.state.note = 'mine'", chunkName: "=test")
        return host
    }

    static func couponState(_ host: PortolanHost) async throws -> [String] {
        try await host.run("return portolan.state.visits, portolan.state.coupon, portolan.state.note", chunkName: "=test")
    }

    /// Before, a key the new rules no longer named stayed in the state for good, unreported.
    @Test func aReloadDropsTheKeyTheNewRulesNoLongerNameAndKeepsTheSessionsOwn() async throws {
        let host = try await Self.hostWithACoupon()
        let reloaded = try await host.reload(.source(Self.rulesWithoutTheCoupon, chunkName: "app.lua"))
        #expect(reloaded.changes == [.stateKeyDropped("coupon")])
        #expect(try await Self.couponState(host) == ["3", "nil", #""mine""#])
    }

    @Test func aFailedReloadPutsTheDroppedKeyBack() async throws {
        let host = try await Self.hostWithACoupon()
        let failing = Self.rulesWithoutTheCoupon + "\nerror('the script fails after declaring')"
        await #expect(throws: HostError.self) { try await host.reload(.source(failing, chunkName: "app.lua")) }
        #expect(try await Self.couponState(host) == ["3", #""WELCOME""#, #""mine""#])
    }

    @Test func aRestoreUnderRulesThatNoLongerNameAKeyDropsItAsAReloadDoes() async throws {
        let saved = try await Self.hostWithACoupon().snapshotBytes()
        #expect(String(decoding: saved, as: UTF8.self).contains(#""state_keys":["coupon","visits"]"#))
        let host = try await PortolanHost.quiet(loading: Self.rulesWithoutTheCoupon)
        let outcome = await host.restore(saved)
        #expect(outcome.changes == [.stateKeyDropped("coupon")], "\(outcome)")
        #expect(outcome.description.contains("dropped portolan.state.coupon: the rules no longer name it"), "\(outcome)")
        #expect(outcome.changes.allSatisfy { $0.isDeclared }, "snapshot migrate counts it as declared")
        #expect(try await Self.couponState(host) == ["3", "nil", #""mine""#])
    }

    /// The rules before, named again right after (an edit undone, a canary's revert): the key
    /// comes back with the session's value, not its first one.
    @Test func aKeyNamedAgainRightAfterComesBackWithTheSessionsValue() async throws {
        let host = try await Self.hostWithACoupon()
        _ = try await host.run("portolan.state.coupon = 'SPENT'", chunkName: "=test")
        _ = try await host.reload(.source(Self.rulesWithoutTheCoupon, chunkName: "app.lua"))
        let back = try await host.reload(.source(Self.rulesWithACoupon, chunkName: "app.lua"))
        #expect(back.changes == [.stateKeyReturned("coupon")])
        #expect(try await Self.couponState(host) == ["3", #""SPENT""#, #""mine""#])
    }

    /// A document of format 1 does not say which keys its rules named: its restore drops none.
    @Test func aFormatOneSnapshotDropsNoKey() async throws {
        let saved = String(decoding: try await Self.hostWithACoupon().snapshotBytes(), as: UTF8.self)
        let formatOne = saved.replacingOccurrences(of: "portolan-snapshot/2", with: "portolan-snapshot/1")
            .replacingOccurrences(of: #","state_keys":["coupon","visits"]"#, with: "")
        let host = try await PortolanHost.quiet(loading: Self.rulesWithoutTheCoupon)
        let outcome = await host.restore(Array(formatOne.utf8))
        #expect(outcome.name == "restored", "\(outcome)")
        #expect(try await Self.couponState(host) == ["3", #""WELCOME""#, #""mine""#])
    }
}
