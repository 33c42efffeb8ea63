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

/// Issue 33's second attack on the bundle pipeline, in the classes the suites before it did not
/// cover: what the signature covers but a reader must still refuse (the key a manifest names, its
/// expiry), key confusion, the floor, rules that would stop their own revert, rules that would
/// slip past the canary, and a store the app finds damaged. Each row is one attempt; each must
/// fail as its row says, and the host must go on serving.
@Suite struct BundleAttackTests {
    // MARK: Signed manifests a reader refuses

    /// A manifest that `change` makes from a good one, signed by hand with the key, as an
    /// attacker holding a key (a leaked staging key) would: the reader must refuse it whole.
    static func handSigned(_ change: (inout [String: JSONValue]) -> Void, key: BundleSigningKey = BundleSigningKey()) throws -> [UInt8] {
        let good = try RulesBundle.read(CanaryPolicyTests.bundle(CanaryPolicyTests.goodApp).bytes()).get()
        var members = good.manifest.json.objectValue ?? [:]
        change(&members)
        let manifestBytes = CanonicalJSON.bytes(of: .object(members))
        var bytes = RulesBundle.magic + withUnsafeBytes(of: UInt32(manifestBytes.count).bigEndian, Array.init) + manifestBytes
        bytes += try key.signature(of: manifestBytes)
        for entry in good.manifest.files { bytes += good.files[entry.path] ?? [] }
        return bytes
    }

    static let refusedManifests: [(String, @Sendable (inout [String: JSONValue]) -> Void)] = [
        ("an empty key id", { $0["key"] = .string("") }),
        ("a key id with a path", { $0["key"] = .string("../k") }),
        ("a key id with a dot", { $0["key"] = .string("a.b") }),
        ("a key id of 201 bytes", { $0["key"] = .string(String(repeating: "a", count: 201)) }),
        ("a key id that is a number", { $0["key"] = .integer(5) }),
        ("a key id that is null", { $0["key"] = .null }),
        ("a key id that is a list", { $0["key"] = .array([.string("a")]) }),
        ("an expiry of 0", { $0["expires"] = .integer(0) }),
        ("a negative expiry", { $0["expires"] = .integer(-1) }),
        ("an expiry past the year 9999", { $0["expires"] = .integer(253_402_300_800) }),
        ("the largest integer as expiry", { $0["expires"] = .integer(Int64.max) }),
        ("a fractional expiry", { $0["expires"] = .number(1.5) }),
        ("an expiry as text", { $0["expires"] = .string("2030-01-01") }),
        ("an expiry that is true", { $0["expires"] = .boolean(true) }),
        ("a key id with a space", { $0["key"] = .string("a b") }),
        ("a key id with a slash", { $0["key"] = .string("a/b") }),
        ("a key id with a dash", { $0["key"] = .string("-") }),
        ("a key id beyond ASCII", { $0["key"] = .string("clé") }),
        ("an expiry that is an object", { $0["expires"] = .object([:]) }),
        ("version 0", { $0["version"] = .integer(0) }),
        ("a version past 2^31 - 1", { $0["version"] = .integer(Int64(Int32.max) + 1) }),
        ("a second key field", { $0["keys"] = .array([]) }),
        ("a signature field in the manifest", { $0["signature"] = .string("x") }),
    ]

    @Test(arguments: refusedManifests.indices)
    func aSignedManifestTheReaderRefuses(_ row: Int) async throws {
        let (name, change) = Self.refusedManifests[row]
        let key = BundleSigningKey()
        let read = RulesBundle.verified(try Self.handSigned(change, key: key), trusting: [key.publicKey])
        guard case .failure(.invalidManifest) = read else {
            Issue.record("\(name): \(read)")
            return
        }
    }

    // MARK: Key confusion

    enum KeyAttack: String, CaseIterable, Sendable {
        case namesOneTrustedKeySignedByAnother, namesAnUntrustedKeySignedByIt, namesATrustedKeySignedByAnUntrustedOne
        case trustsNoKey, namesNoKeySignedByAnUntrustedOne
    }

    @Test(arguments: KeyAttack.allCases)
    func keyConfusion(_ attack: KeyAttack) throws {
        let a = BundleSigningKey(), b = BundleSigningKey(), outsider = BundleSigningKey()
        let bytes: [UInt8], trusted: [BundlePublicKey], expected: BundleError
        switch attack {
        case .namesOneTrustedKeySignedByAnother:
            bytes = try Self.handSigned({ $0["key"] = .string(a.publicKey.id) }, key: b)
            (trusted, expected) = ([a.publicKey, b.publicKey], .badSignature)
        case .namesAnUntrustedKeySignedByIt:
            bytes = try Self.handSigned({ $0["key"] = .string(outsider.publicKey.id) }, key: outsider)
            (trusted, expected) = ([a.publicKey], .untrustedKey(outsider.publicKey.id))
        case .namesATrustedKeySignedByAnUntrustedOne:
            bytes = try Self.handSigned({ $0["key"] = .string(a.publicKey.id) }, key: outsider)
            (trusted, expected) = ([a.publicKey], .badSignature)
        case .trustsNoKey:
            bytes = try Self.handSigned({ $0["key"] = .string(a.publicKey.id) }, key: a)
            (trusted, expected) = ([], .untrustedKey(a.publicKey.id))
        case .namesNoKeySignedByAnUntrustedOne:
            bytes = try Self.handSigned({ $0["key"] = nil }, key: outsider)
            (trusted, expected) = ([a.publicKey, b.publicKey], .badSignature)
        }
        #expect(RulesBundle.verified(bytes, trusting: trusted).failure == expected, "\(attack)")
    }

    // MARK: The floor

    enum FloorAttack: String, CaseIterable, Sendable {
        case sameVersionAgain, olderVersion, anotherIDAtTheFloor, anotherIDFarBelow, aJumpOfMoreThanTheStep
        case theLargestVersion, theWatchedVersionOfferedAgain
    }

    /// A store whose floor is 5 (a canary passed), and a host on it.
    static func storeAtFloor5() async throws -> (TemporaryDirectory, PortolanHost, BundleSigningKey) {
        let store = try TemporaryDirectory("store")
        let key = BundleSigningKey(), host = try await BundleInstallTests.liveHost()
        let passed = await BundleLifecycleTests.installAndRoute(try BundleLifecycleTests.bundle(version: 5, key: key), key: key, on: host, store)
        #expect(passed.name == "accepted" && BundleStore(directory: store.root).floor == 5, "\(passed.text)")
        return (store, host, key)
    }

    @Test(arguments: FloorAttack.allCases)
    func theFloorHolds(_ attack: FloorAttack) async throws {
        let (store, host, key) = try await Self.storeAtFloor5()
        defer { store.remove() }
        let options = BundleLifecycleTests.options(store)
        let offer = { (id: String, version: Int) async throws -> BundleInstallOutcome in
            await RulesUpdater(host: host, publicKey: key.publicKey, options: options).install(bundle: try BundleLifecycleTests.bundle(id: id, version: version, key: key))
        }
        let outcome: BundleInstallOutcome
        switch attack {
        case .sameVersionAgain: outcome = try await offer("com.example.rules", 5)
        case .olderVersion: outcome = try await offer("com.example.rules", 4)
        case .anotherIDAtTheFloor: outcome = try await offer("com.example.staging", 5)
        case .anotherIDFarBelow: outcome = try await offer("com.example.staging", 1)
        case .aJumpOfMoreThanTheStep: outcome = try await offer("com.example.rules", 1006)
        case .theLargestVersion: outcome = try await offer("com.example.rules", Int(Int32.max))
        case .theWatchedVersionOfferedAgain:
            #expect(try await offer("com.example.rules", 6).name == "accepted")
            outcome = try await offer("com.example.rules", 6)
        }
        guard case .rejected(.integrity, let reason) = outcome else {
            Issue.record("\(attack): \(outcome.text)")
            return
        }
        switch reason {
        case .replayedVersion, .versionJump: break
        default: Issue.record("\(attack): \(reason.text)")
        }
        #expect(BundleStore(directory: store.root).floor == 5)
    }

    /// A watched bundle's file replaced by an older release of the team's (by hand, or by another
    /// process): the next start resumes no watch below the floor; the known good serves.
    @Test func aWatchedFileReplacedByAnOlderReleaseIsNotResumed() async throws {
        let (store, _, key) = try await Self.storeAtFloor5()
        defer { store.remove() }
        let old = try BundleLifecycleTests.bundle(version: 3, key: key)
        try Data(old).write(to: URL(fileURLWithPath: store.path("watching.bundle")))
        try Data("com.example.rules 3 0\n".utf8).write(to: URL(fileURLWithPath: store.path("watch")))
        let restarted = try await BundleInstallTests.liveHost()
        let started = await RulesUpdater(host: restarted, publicKey: key.publicKey, options: BundleLifecycleTests.options(store)).installKnownGood()
        guard case .accepted(let manifest, .knownGood)? = started else {
            Issue.record("\(started?.text ?? "nil")")
            return
        }
        #expect(manifest.version == 5)
    }

    // MARK: Rules that would stop their own revert

    enum RevertEvasion: String, CaseIterable, Sendable {
        case aFunctionInTheState, aCycleInTheState, aLockedMetatableOnTheState, stateNestedTooDeep, aNotANumberInTheState
        case anObserverThatThrowsOnTreeCarried, anObserverThatRoutesOnTreeCarried, aLeaveThatLoopsForever

        /// Lua run by `about`'s leave handler before it fails, or the rules' extra lines.
        var lua: (leave: String, extra: String) {
            switch self {
            case .aFunctionInTheState: ("portolan.state.f = print", "")
            case .aCycleInTheState: ("local t = {}; t.t = t; portolan.state.loop = t", "")
            case .aLockedMetatableOnTheState:
                ("setmetatable(portolan.state, { __metatable = 1, __newindex = function() error('no writes') end })", "")
            case .stateNestedTooDeep: ("local t = {}; for _ = 1, 100 do t = { t } end; portolan.state.deep = t", "")
            case .aNotANumberInTheState: ("portolan.state.nan = 0/0", "")
            case .anObserverThatThrowsOnTreeCarried: ("", #"portolan.on("tree_carried", function() error("carried") end)"#)
            case .anObserverThatRoutesOnTreeCarried: ("", #"portolan.on("tree_carried", function() portolan.route { "root", "news" } end)"#)
            case .aLeaveThatLoopsForever: ("while true do end", "")
            }
        }
    }

    @Test(arguments: RevertEvasion.allCases)
    func rulesCannotStopTheirOwnRevert(_ attack: RevertEvasion) async throws {
        let (leave, extra) = attack.lua
        let app = """
            portolan.initial_state { visits = 0 }
            portolan.app { id = "root", children = {
              { id = "home" }, { id = "about", leave = function() \(leave); error("about will not leave") end }, { id = "news" } } }
            \(extra)
            """
        let host = try await BundleInstallTests.liveHost(HostConfiguration(handlerTimeout: .milliseconds(200)))
        let verdict = try await CanaryPolicyTests.verdict(of: app, policy: CanaryPolicy(routes: 4, maximumFailureRatio: 0), on: host)
        guard case .reverted? = verdict else {
            Issue.record("\(attack): \(verdict?.text ?? "no verdict")")
            return
        }
        #expect(try await host.run("return portolan.state.visits, getmetatable(portolan.state)", chunkName: "=t") == ["3", "nil"], "\(attack)")
        #expect(await host.route(.path(["root", "home"])).isSuccess, "\(attack): the rules before serve")
        #expect(try await host.snapshotBytes().count > 0, "\(attack): the state is plain data again")
    }

    // MARK: Rules that would slip past the canary

    enum CanaryEvasion: String, CaseIterable, Sendable {
        case redirectEveryRoute, redirectThroughTwoInterceptors, denyEveryRoute, paddingWithRoutesOfTheirOwn
        case paddingFromAHandler, failOneInThree, askForNoRoutes, askForEveryFailureAllowed

        var app: String {
            let screens = #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }"#
            switch self {
            case .redirectEveryRoute:
                return screens + "\n" + #"portolan.intercept(function(r) if not r:goes_to("news") then return portolan.redirect { "root", "news" } end end)"#
            case .redirectThroughTwoInterceptors:
                return screens + "\n" + #"portolan.intercept(function(r) if r:goes_to("home") then return portolan.redirect { "root", "about" } end end)"#
                    + "\n" + #"portolan.intercept(function(r) if r:goes_to("about") then return portolan.redirect { "root", "news" } end end)"#
            case .denyEveryRoute:
                // Every route but to the screen the user is on, so that the swap's own guard check passes.
                return screens + "\n" + #"portolan.intercept(function(r) if not r:goes_to("about") then return portolan.deny("closed") end end)"#
            case .paddingWithRoutesOfTheirOwn:
                return #"portolan.app { id = "root", children = { { id = "home", enter = function() error("broken") end }, { id = "about" }, { id = "news" } } }"#
                    + "\n" + #"local padded = 0; portolan.on("failed", function() if padded < 50 then padded = padded + 1; for _ = 1, 5 do portolan.route { "root", "news" } end end end)"#
            case .paddingFromAHandler:
                return #"portolan.app { id = "root", children = { { id = "home", enter = function() portolan.route { "root", "news" } error("broken") end }, { id = "about" }, { id = "news" } } }"#
            case .failOneInThree:
                return #"local n = 0; portolan.app { id = "root", children = { { id = "home", enter = function() n = n + 1; if n % 3 == 0 then error("every third") end end }, { id = "about" }, { id = "news" } } }"#
            case .askForNoRoutes, .askForEveryFailureAllowed:
                return #"portolan.app { id = "root", children = { { id = "home", enter = function() error("broken") end }, { id = "about" }, { id = "news" } } }"#
            }
        }

        var settings: CanarySettings {
            switch self {
            case .askForNoRoutes: CanarySettings(routes: 0, maximumFailureRatio: 0)
            default: CanarySettings(routes: 0, maximumFailureRatio: 1)
            }
        }
    }

    @Test(arguments: CanaryEvasion.allCases)
    func rulesCannotSlipPastTheCanary(_ attack: CanaryEvasion) async throws {
        let verdict = try await CanaryPolicyTests.verdict(of: attack.app, policy: CanaryPolicy(routes: 12, maximumFailureRatio: 0.1), settings: attack.settings)
        guard case .reverted? = verdict else {
            Issue.record("\(attack): \(verdict?.text ?? "no verdict")")
            return
        }
    }

    // MARK: A store the app finds damaged

    enum StoreDamage: String, CaseIterable, Sendable {
        case floorIsText, watchIsText, watchWithoutItsBundle, watchedBundleIsGarbage, knownGoodTruncated
        case quarantineIsGarbage, watchStartsOverflow, watchStartsNegative, floorIsEmpty, storeIsAFile

        /// Damages the store whose known good is version 5 (floor 5).
        func damage(_ store: TemporaryDirectory) throws {
            let write = { (name: String, text: String) in try Data(text.utf8).write(to: URL(fileURLWithPath: store.path(name))) }
            switch self {
            case .floorIsText: try write("floor", "five\n")
            case .watchIsText: try write("watch", "a watch\n"); try write("watching.bundle", "x")
            case .watchWithoutItsBundle: try write("watch", "com.example.rules 6 0\n")
            case .watchedBundleIsGarbage: try write("watch", "com.example.rules 6 0\n"); try write("watching.bundle", "portolan-bundle/1\n\u{0}")
            case .knownGoodTruncated:
                let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path("known-good.bundle")))
                try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: store.path("known-good.bundle")))
            case .quarantineIsGarbage: try write("quarantine", "\u{0}\u{1}\n \n a b c d\nx -1\n")
            case .watchStartsOverflow:
                try write("watch", "com.example.rules 6 99999999999999999999999\n"); try write("watching.bundle", "x")
            case .watchStartsNegative: try write("watch", "com.example.rules 6 -5\n"); try write("watching.bundle", "x")
            case .floorIsEmpty: try write("floor", "")
            case .storeIsAFile: break
            }
        }
    }

    /// The app starts on a damaged store: no crash, nothing below the known good is installed,
    /// and the host serves (the known good, or the embedded rules when that is what is damaged).
    @Test(arguments: StoreDamage.allCases)
    func aDamagedStoreStartsSafely(_ damage: StoreDamage) async throws {
        let (store, _, key) = try await Self.storeAtFloor5()
        defer { store.remove() }
        try damage.damage(store)
        var options = BundleLifecycleTests.options(store)
        if damage == .storeIsAFile { options.store = BundleStore(directory: store.path("known-good.bundle")) }
        let host = try await BundleInstallTests.liveHost()
        let started = await RulesUpdater(host: host, publicKey: key.publicKey, options: options).installKnownGood()
        if case .accepted(let manifest, _)? = started {
            #expect(manifest.version == 5, "\(damage): \(started?.text ?? "")")
        }
        #expect(await host.route(.path(["root", "home"])).isSuccess, "\(damage): the host serves")
    }
}
