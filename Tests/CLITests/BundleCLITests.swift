import Foundation
import TestSupport
import Testing

/// `portolan bundle keygen/build/verify/inspect` through the real binary; no key's text ever in
/// output or an error but the public key keygen prints on purpose.
@Suite struct BundleCLITests {
    static let sources: [String: String] = [
        "rules/bundle.json": #"{"id": "com.example.shop", "version": 3, "entry": "app.lua", "scenarios": ["scenarios/about.lua"], "canary": {"routes": 20, "max_failure_ratio": 0.05}}"#,
        "rules/app.lua": #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }"#,
        "rules/scenarios/about.lua": #"scenario("about", function() assert(portolan.route { "root", "about" }) end)"#,
    ]

    /// A directory with the sources, a key made by keygen, and its public key.
    static func keyed() async throws -> (TemporaryDirectory, publicKey: String, privateText: String) {
        let directory = try TemporaryDirectory("bundle-cli", files: sources)
        let keygen = try await PortolanBinary.run(["bundle", "keygen", "-o", "signing.key"], in: directory)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let privateText = try String(contentsOfFile: directory.path("signing.key"), encoding: .utf8)
        return (directory, keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines), privateText)
    }

    @Test func keygenWritesAPrivateFileAndPrintsOnlyThePublicKey() async throws {
        let (directory, publicKey, privateText) = try await Self.keyed()
        defer { directory.remove() }
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path("signing.key"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(publicKey.hasPrefix("ed25519:") && !publicKey.contains("\n"))
        #expect(!privateText.contains(publicKey.dropFirst(8)))
        let again = try await PortolanBinary.run(["bundle", "keygen", "-o", "signing.key"], in: directory)
        #expect(again.status == 2 && again.stderr.contains("exists"))
        #expect(try String(contentsOfFile: directory.path("signing.key"), encoding: .utf8) == privateText)
    }

    @Test func buildVerifyInspect() async throws {
        let (directory, publicKey, privateText) = try await Self.keyed()
        defer { directory.remove() }
        let build = try await PortolanBinary.run(["bundle", "build", "rules", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
        #expect(build.status == 0, "\(build.stderr)")
        let verify = try await PortolanBinary.run(["bundle", "verify", "shop.bundle", "--public-key", publicKey], in: directory)
        #expect(verify.status == 0 && verify.stdout == "verified: com.example.shop version 3, 2 file(s)\n", "\(verify.stdout)\(verify.stderr)")
        try (publicKey + "\n").write(toFile: directory.path("public.key"), atomically: true, encoding: .utf8)
        let fromFile = try await PortolanBinary.run(["bundle", "verify", "shop.bundle", "--public-key", "public.key"], in: directory)
        #expect(fromFile.status == 0)
        let inspect = try await PortolanBinary.run(["bundle", "inspect", "shop.bundle"], in: directory)
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("id: com.example.shop\nversion: 3\n"))
        #expect(inspect.stdout.contains("scenarios: scenarios/about.lua"))
        #expect(inspect.stdout.contains("canary: 20 routes, at most 0.05 failing"))
        for run in [build, verify, fromFile, inspect] {
            #expect(!(run.stdout + run.stderr).contains(Self.keyBody(privateText)))
        }
    }

    @Test func verifyRefusesWithAReasonAndStatus1() async throws {
        let (directory, _, _) = try await Self.keyed()
        defer { directory.remove() }
        _ = try await PortolanBinary.run(["bundle", "build", "rules", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
        let other = try await PortolanBinary.run(["bundle", "keygen", "-o", "other.key"], in: directory)
        let otherKey = other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let wrongKey = try await PortolanBinary.run(["bundle", "verify", "shop.bundle", "--public-key", otherKey], in: directory)
        #expect(wrongKey.status == 1 && wrongKey.stdout.contains("untrusted key: the manifest is signed by key "))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path("shop.bundle"))))
        guard bytes.count > 10 else { throw TestFailure("an empty bundle") }
        bytes[bytes.count - 3] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: directory.path("tampered.bundle")))
        let keygen = try await PortolanBinary.run(["bundle", "verify", "tampered.bundle", "--public-key", "ed25519:AAAA"], in: directory)
        #expect(keygen.status == 2 && !keygen.stderr.contains("AAAA"), "\(keygen.stderr)")
    }

    @Test func aKeyNeverAppearsInAnError() async throws {
        let (directory, publicKey, privateText) = try await Self.keyed()
        defer { directory.remove() }
        // A private key given where a public one goes, a public key where a private one goes, a
        // damaged key: each refused without its text.
        try (publicKey + "\n").write(toFile: directory.path("public.key"), atomically: true, encoding: .utf8)
        try String(privateText.dropLast(5)).write(toFile: directory.path("damaged.key"), atomically: true, encoding: .utf8)
        let runs = [
            try await PortolanBinary.run(["bundle", "verify", "x.bundle", "--public-key", "signing.key"], in: directory),
            try await PortolanBinary.run(["bundle", "build", "rules", "--key", "public.key", "-o", "b"], in: directory),
            try await PortolanBinary.run(["bundle", "build", "rules", "--key", "damaged.key", "-o", "b"], in: directory),
            try await PortolanBinary.run(["bundle", "verify", "x.bundle", "--public-key", String(privateText.dropLast())], in: directory),
        ]
        #expect(runs.count == 4)
        for run in runs {
            #expect(run.status == 2)
            let output = run.stdout + run.stderr
            #expect(!output.contains(Self.keyBody(privateText)) && !output.contains(publicKey.dropFirst(8)), "\(output)")
        }
    }

    /// The base64 of a private key's text (after its prefix).
    static func keyBody(_ text: String) -> String {
        String(text.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
