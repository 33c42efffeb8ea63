#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Portolan
@testable import PortolanLua
@testable import PortolanShipping
import TestSupport
import Testing

/// Issue 33, item 8: an app trusts a list of keys, and a manifest names the one that signed it, so
/// a team rotates keys without a release that breaks; and a bundle can say until when it may be
/// installed, which an app can require.
@Suite struct BundleKeyTests {
    static func options(_ store: TemporaryDirectory, requiresExpiry: Bool = false) -> BundleInstallOptions {
        BundleInstallOptions(store: BundleStore(directory: store.root), requiresExpiry: requiresExpiry)
    }

    static func fixture(signedBy key: BundleSigningKey, version: Int = 2, expires: Int? = nil) -> BundleFixture {
        var fixture = CanaryPolicyTests.bundle(CanaryPolicyTests.goodApp, version: version)
        fixture.key = key
        fixture.manifest.expires = expires
        return fixture
    }

    @Test func aBuiltManifestNamesItsKeyAndAnAppTrustingBothKeysTakesEither() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let old = BundleSigningKey(), new = BundleSigningKey()
        let host = try await BundleInstallTests.liveHost()
        let trusted = [old.publicKey, new.publicKey]
        for (version, key) in [(2, old), (3, new)] {
            let bytes = try Self.fixture(signedBy: key, version: version).bytes()
            #expect(try RulesBundle.read(bytes).get().manifest.key == key.publicKey.id)
            let outcome = await RulesUpdater(host: host, publicKeys: trusted, options: Self.options(store)).install(bundle: bytes)
            #expect(outcome.name == "accepted", "\(outcome.text)")
        }
    }

    @Test func aKeyTheAppNoLongerTrustsIsRefusedByName() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let retired = BundleSigningKey(), current = BundleSigningKey()
        let host = try await BundleInstallTests.liveHost()
        let outcome = await RulesUpdater(host: host, publicKeys: [current.publicKey], options: Self.options(store)).install(bundle: try Self.fixture(signedBy: retired).bytes())
        #expect(outcome == .rejected(stage: .integrity, reason: .invalid(.untrustedKey(retired.publicKey.id))))
        #expect(outcome.text.contains("signed by key \(retired.publicKey.id), which this app does not trust"))
    }

    /// A manifest that names one trusted key is checked with that key alone: a signature by
    /// another trusted key does not make it good.
    @Test func aManifestIsCheckedWithTheKeyItNamesOnly() throws {
        let named = BundleSigningKey(), signer = BundleSigningKey()
        var fixture = Self.fixture(signedBy: signer)
        let bundle = try RulesBundle.read(fixture.bytes()).get()
        fixture.manifest = bundle.manifest
        fixture.manifest.key = named.publicKey.id
        // The manifest naming `named`, signed by `signer`: built by hand, as an attacker would.
        var bytes = Array("portolan-bundle/1\n".utf8)
        let manifestBytes = fixture.manifest.canonicalBytes
        bytes += withUnsafeBytes(of: UInt32(manifestBytes.count).bigEndian, Array.init) + manifestBytes
        bytes += try signer.signature(of: manifestBytes)
        for entry in fixture.manifest.files { bytes += bundle.files[entry.path] ?? [] }
        let verified = RulesBundle.verified(bytes, trusting: [named.publicKey, signer.publicKey])
        #expect(verified.failure == .badSignature)
    }

    @Test func anExpiredBundleIsRefusedAndAnAppMayRequireAnExpiry() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let key = BundleSigningKey(), host = try await BundleInstallTests.liveHost()
        let now = Int(Date().timeIntervalSince1970)
        let expired = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store)).install(bundle: try Self.fixture(signedBy: key, expires: now - 60).bytes())
        #expect(expired == .rejected(stage: .integrity, reason: .expired(at: now - 60)))
        #expect(!BundleStore(directory: store.root).isQuarantined(.init(id: "com.example.rules", version: 2)), "a clock is not the bundle's fault")
        let unlimited = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store, requiresExpiry: true)).install(bundle: try Self.fixture(signedBy: key).bytes())
        #expect(unlimited == .rejected(stage: .integrity, reason: .noExpiry))
        let fresh = await RulesUpdater(host: host, publicKey: key.publicKey, options: Self.options(store, requiresExpiry: true)).install(bundle: try Self.fixture(signedBy: key, expires: now + 3600).bytes())
        #expect(fresh.name == "accepted", "\(fresh.text)")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
