import Portolan
import PortolanLua
import FuzzSupport
import TestSupport
import Testing
import PortolanShipping

/// `RulesBundle`'s reader and verifier: what it writes reads back; every malformed part is refused
/// with its typed error; and mutated bundles, seeded, never crash it.
@Suite struct BundleReaderTests {
    @Test func aBundleReadsBackAndVerifies() throws {
        let fixture = BundleFixture()
        let bundle = try RulesBundle.verified(try fixture.bytes(), publicKey: fixture.publicKey).get()
        #expect(bundle.manifest.id == "com.example.rules" && bundle.manifest.version == 2)
        #expect(bundle.manifest.files.map(\.path) == ["app.lua", "scenarios/about.lua"])
        #expect(bundle.files["app.lua"] == Array(BundleFixture.app.utf8))
        #expect(bundle.manifest.canary == CanarySettings(routes: 20, maximumFailureRatio: 0.1))
        // The manifest is signed in its canonical form: writing it again gives the same bytes.
        #expect(bundle.manifestBytes == CanonicalJSON.bytes(of: bundle.manifest.json))
    }

    @Test func keysReadBackAndNeverDescribeThemselves() throws {
        let key = BundleSigningKey()
        let again = try BundleSigningKey(text: "  " + key.text + "\n")
        #expect(again.publicKey == key.publicKey)
        #expect(try BundlePublicKey(text: key.publicKey.text) == key.publicKey)
        #expect(!"\(key)".contains(String(key.text.suffix(44))))
        for text in ["", "ed25519:", "ed25519:AAAA", key.text, String(key.text.dropLast(2))] {
            #expect(throws: BundleError.self) { try BundlePublicKey(text: text) }
        }
        do {
            _ = try BundleSigningKey(text: key.publicKey.text)
            Issue.record("a public key read as a signing key")
        } catch {
            #expect(!error.reason.contains(key.publicKey.text))
        }
    }

    @Test func notABundle() throws {
        for bytes in [Array("hello".utf8), Array("portolan-bundle/2\n....".utf8), [0xFF, 0x00]] {
            guard case .failure(.notABundle) = RulesBundle.read(bytes) else {
                Issue.record("read \(bytes.count) bytes")
                continue
            }
        }
        // Bytes after the last file.
        var bytes = try BundleFixture().bytes()
        bytes.append(0x0A)
        guard case .failure(.notABundle) = RulesBundle.read(bytes) else {
            Issue.record("trailing bytes accepted")
            return
        }
    }

    @Test func everyCutIsTruncated() throws {
        let bytes = try BundleFixture().bytes()
        for length in 1..<bytes.count {
            switch RulesBundle.read(Array(bytes.prefix(length))) {
            case .failure(.truncated): break
            case let other: Issue.record("cut at \(length): \(other)")
            }
        }
    }

    @Test func manifestsThatAreRefused() throws {
        let fixture = BundleFixture()
        let files = fixture.files.mapValues { Array($0.utf8) }
        let manifests: [BundleManifest] = [
            BundleManifest(id: "com.example", version: 1, entry: "missing.lua", files: []),
            BundleManifest(id: "a b", version: 1, entry: "app.lua", files: []),
            BundleManifest(id: "x", version: 0, entry: "app.lua", files: []),
            BundleManifest(id: "x", version: 1, entry: "app.lua", files: [], scenarios: ["other.lua"]),
            BundleManifest(id: "x", version: 1, entry: "app.lua", files: [], canary: CanarySettings(routes: 20, maximumFailureRatio: 1.5)),
        ]
        for manifest in manifests {
            #expect(throws: BundleError.self) { try RulesBundle.encode(manifest, files: files, signingKey: fixture.key) }
        }
        for path in ["../escape.lua", "/etc/passwd.lua", ".hidden.lua", "a//b.lua", "notes.txt", "a/./b.lua"] {
            var broken = files
            broken[path] = Array("return 1".utf8)
            #expect(throws: BundleError.self, "\(path)") { try RulesBundle.encode(fixture.manifest, files: broken, signingKey: fixture.key) }
        }
    }

    @Test func aManifestNotInCanonicalFormIsRefused() throws {
        var bytes = try BundleFixture().bytes()
        // `{"abi":1,` becomes `{"abi":1 ` : the same length, no longer canonical (nor JSON's last byte).
        let start = 22
        guard let comma = bytes[start...].firstIndex(of: UInt8(ascii: ",")) else {
            Issue.record("no comma")
            return
        }
        bytes[comma] = UInt8(ascii: " ")
        guard case .failure(.invalidManifest) = RulesBundle.read(bytes) else {
            Issue.record("accepted")
            return
        }
    }

    @Test func tooLarge() {
        var bytes = Array("portolan-bundle/1\n".utf8)
        bytes += [0x7F, 0xFF, 0xFF, 0xFF]
        guard case .failure(.tooLarge) = RulesBundle.read(bytes) else {
            Issue.record("a 2 GiB manifest length was not refused as too large")
            return
        }
        guard case .failure(.tooLarge) = RulesBundle.read([UInt8](repeating: 0, count: BundleLimits.maximumBytes + 1)) else {
            Issue.record("an oversized file was not refused")
            return
        }
    }

    /// 3,000 mutated bundles (seeded): each read returns, and none but the original verifies
    /// (`BundleFuzzer` throws at the first that does).
    @Test func mutatedBundlesNeverCrashTheReader() throws {
        let fuzzer = try BundleFuzzer(seed: 22)
        try fuzzer.run(0..<3_000)
        #expect(fuzzer.refused + fuzzer.accepted == 3_000)
        #expect(fuzzer.refused > 2_500)
    }
}
