import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// The gate's stages 1–5 on bad bundles, at least three of each class the stages cover: each is
/// rejected at its stage with a typed reason, and the live host's snapshot is byte-identical.
@Suite struct BundleGateTests {
    /// A live host with an app on a route, and a Swift node and a function the bundles may require.
    static func liveHost() async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: """
            portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "map" } } }
            """)
        await host.bind(NativeMap(), to: "map")
        try await host.register(function: "analytics_enabled") { _ in [.boolean(true)] }
        _ = await host.route(.path(["root", "about"]))
        return host
    }

    struct NativeMap: Routable {}

    /// Checks `bytes` on a live host: the outcome, and the live snapshot unchanged by it. Then
    /// installs them on another live host (`host.install`, the whole gate): a bundle the check
    /// rejects is rejected there at the same stage, before the swap, with the live snapshot
    /// byte-identical, and for the same reason, or, given `installAlike`, for a reason it accepts.
    /// Rules ended by a limit need `installAlike`: which of the instruction budget, the memory cap
    /// or a wall-clock limit trips first depends on how busy the machine is, and the two runs may
    /// differ.
    static func outcome(
        _ bytes: [UInt8], key: BundlePublicKey, options: BundleGate.Options = .init(),
        installAlike: ((BundleRejectionReason) -> Bool)? = nil
    ) async throws -> BundleGateOutcome {
        let host = try await liveHost()
        let before = try await host.snapshotBytes()
        let outcome = await host.checkBundle(bytes, publicKey: key, options: options)
        #expect(try await host.snapshotBytes() == before, "the live tree changed")
        guard case .rejected(let stage, let reason) = outcome else { return outcome }
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let installing = try await liveHost()
        let installed = await RulesUpdater(host: installing, publicKey: key, options: BundleInstallOptions(store: BundleStore(directory: store.root), gate: options)).install(bundle: bytes)
        #expect(try await installing.snapshotBytes() == before, "install changed the live tree")
        if let installAlike {
            guard case .rejected(stage, let installReason) = installed, installAlike(installReason) else {
                Issue.record("checked: \(outcome.text); installed: \(installed.text)")
                return outcome
            }
        } else {
            #expect(installed == .rejected(stage: stage, reason: reason), "\(installed.text)")
        }
        return outcome
    }

    /// Each fixture rejected at `stage` by the check and by the install, for a reason that
    /// `matches`; the two reasons equal unless `whicheverLimitTrips` (see `outcome`).
    static func expectRejected(
        _ fixtures: [BundleFixture], at stage: BundleGateStage, whicheverLimitTrips: Bool = false,
        _ matches: @escaping (BundleRejectionReason) -> Bool
    ) async throws {
        #expect(fixtures.count >= 3)
        for fixture in fixtures {
            let outcome = try await outcome(
                try fixture.bytes(), key: fixture.publicKey, installAlike: whicheverLimitTrips ? matches : nil)
            guard case .rejected(let actual, let reason) = outcome else {
                Issue.record("passed: \(fixture.files["app.lua"] ?? "")")
                continue
            }
            #expect(actual == stage, "\(outcome.text)")
            #expect(matches(reason), "\(outcome.text)")
        }
    }

    @Test func aGoodBundlePasses() async throws {
        var fixture = BundleFixture()
        fixture.manifest.requires = BundleRequirements(nodes: ["map"], functions: ["analytics_enabled"], contextKeys: ["user"])
        let outcome = try await Self.outcome(try fixture.bytes(), key: fixture.publicKey, options: .init(contextKeys: ["user"]))
        guard case .passed(let manifest) = outcome else {
            Issue.record("\(outcome.text)")
            return
        }
        #expect(manifest.id == "com.example.rules" && manifest.version == 2)
    }

    @Test func badSignatures() async throws {
        let fixture = BundleFixture()
        let bytes = try fixture.bytes()
        // Another key: the manifest names the key that signed it, which this app does not trust.
        for key in [BundleSigningKey(), BundleSigningKey(), BundleSigningKey()] {
            let outcome = try await Self.outcome(bytes, key: key.publicKey)
            #expect(outcome == .rejected(stage: .integrity, reason: .invalid(.untrustedKey(fixture.publicKey.id))))
        }
        // The signature's own bytes changed: 3 places.
        let signatureStart = RulesBundleLayout.signatureOffset(in: bytes)
        for offset in [0, 31, 63] {
            var changed = bytes
            changed[signatureStart + offset] ^= 0x01
            #expect(try await Self.outcome(changed, key: fixture.publicKey) == .rejected(stage: .integrity, reason: .invalid(.badSignature)))
        }
    }

    @Test func tamperedFiles() async throws {
        let fixture = BundleFixture()
        let bytes = try fixture.bytes()
        // Each file's bytes follow the signature, the app first (sorted by path).
        let filesStart = RulesBundleLayout.signatureOffset(in: bytes) + 64
        let appBytes = BundleFixture.app.utf8.count
        for (offset, file) in [(0, "app.lua"), (appBytes - 1, "app.lua"), (appBytes + 3, "scenarios/about.lua")] {
            var changed = bytes
            changed[filesStart + offset] ^= 0x20
            #expect(try await Self.outcome(changed, key: fixture.publicKey) == .rejected(stage: .integrity, reason: .invalid(.tamperedFile(file))))
        }
    }

    @Test func truncatedFiles() async throws {
        let fixture = BundleFixture()
        let bytes = try fixture.bytes()
        for length in [10, 30, bytes.count - 70, bytes.count - 1] {
            let outcome = try await Self.outcome(Array(bytes.prefix(length)), key: fixture.publicKey)
            guard case .rejected(.integrity, .invalid(.truncated)) = outcome else {
                Issue.record("\(length): \(outcome.text)")
                continue
            }
        }
    }

    @Test func abiTooNew() async throws {
        let fixtures = [RulesABI.current + 1, RulesABI.current + 2, 1000].map { abi in
            var fixture = BundleFixture()
            fixture.manifest.abi = abi
            return fixture
        }
        try await Self.expectRejected(fixtures, at: .requirements) { reason in
            if case .invalid(.abiTooNew(_, RulesABI.current)) = reason { return true }
            return false
        }
    }

    @Test func missingRequirements() async throws {
        let requirements = [
            BundleRequirements(nodes: ["camera"]), BundleRequirements(nodes: ["map", "payments"]),
            BundleRequirements(nodes: ["home"]), BundleRequirements(functions: ["track"]),
            BundleRequirements(contextKeys: ["locale"]),
        ]
        let fixtures = requirements.map { requires in
            var fixture = BundleFixture()
            fixture.manifest.requires = requires
            return fixture
        }
        try await Self.expectRejected(fixtures, at: .requirements) { reason in
            if case .invalid(.missingRequirement) = reason { return true }
            return false
        }
    }
}

/// Where the parts of a bundle's bytes start, for tests that change one of them.
enum RulesBundleLayout {
    static func signatureOffset(in bytes: [UInt8]) -> Int {
        let length = bytes[18..<22].reduce(0) { $0 << 8 | Int($1) }
        return 22 + length
    }
}
