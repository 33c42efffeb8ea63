import Foundation
import TestSupport
import Testing

/// `portolan bundle install FILE --app APP --public-key K` through the real binary: the typed
/// outcome printed, exit status 0 when accepted, 1 when rejected or reverted, 2 for usage; the
/// store given keeps the quarantine from one run to the next.
@Suite struct BundleInstallCLITests {
    static let app = #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }"#

    /// Keys, the app, and rules in `rules/` with `appSource` as their app and version `version`.
    static func directory(rules appSource: String, version: Int = 3) async throws -> (TemporaryDirectory, publicKey: String) {
        var files = BundleCLITests.sources
        files["rules/app.lua"] = appSource
        files["rules/bundle.json"] = #"{"id": "com.example.shop", "version": \#(version), "entry": "app.lua", "scenarios": [], "canary": {"routes": 10, "max_failure_ratio": 0.1}}"#
        files["rules/scenarios/about.lua"] = nil
        files["app.lua"] = app
        files["routes.txt"] = (0..<10).map { $0.isMultiple(of: 2) ? "root/home" : "root/about" }.joined(separator: "\n")
        let directory = try TemporaryDirectory("bundle-install", files: files)
        let keygen = try await PortolanBinary.run(["bundle", "keygen", "-o", "signing.key"], in: directory)
        let build = try await PortolanBinary.run(["bundle", "build", "rules", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
        #expect(build.status == 0, "\(build.stderr)")
        return (directory, keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func install(_ directory: TemporaryDirectory, _ publicKey: String, _ extra: [String] = []) async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try await PortolanBinary.run(
            ["bundle", "install", "shop.bundle", "--app", "app.lua", "--public-key", publicKey, "--store", "store", "--canary-routes", "10"] + extra, in: directory)
        return (run.status, run.stdout, run.stderr)
    }

    @Test func aGoodBundleIsAcceptedAndItsCanaryPasses() async throws {
        let (directory, publicKey) = try await Self.directory(rules: #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }"#)
        defer { directory.remove() }
        let run = try await Self.install(directory, publicKey, ["--routes", "routes.txt"])
        #expect(run.status == 0 && run.stdout == "accepted: com.example.shop version 3 (canary passed 10 routes)\n", "\(run.stdout)\(run.stderr)")
        // The next start installs it as the known good; the same version again is a replay.
        let again = try await Self.install(directory, publicKey)
        #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout == """
            at start: accepted: com.example.shop version 3 (known good: its canary passed on an earlier run)
            rejected at stage 1 (integrity): replayed older version: com.example.shop version 3, and version 3 is installed

            """)
    }

    @Test func aBundleThatFailsItsRoutesIsRevertedNamingThem() async throws {
        let broken = #"portolan.app { id = "root", children = { { id = "home", enter = function() error("broken") end }, { id = "about" } } }"#
        let (directory, publicKey) = try await Self.directory(rules: broken)
        defer { directory.remove() }
        let run = try await Self.install(directory, publicKey, ["--routes", "routes.txt"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("reverted: com.example.shop version 3 after 2 failing route(s): root > home (handler_failed): "), "\(run.stdout)")
        // Quarantined in the store: the next run refuses it before anything runs.
        let again = try await Self.install(directory, publicKey)
        #expect(again.status == 1 && again.stdout == "rejected at stage 1 (integrity): quarantined: com.example.shop version 3 was rejected or reverted before\n", "\(again.stdout)")
    }

    @Test func aRejectionSaysTheStageAndUsageErrorsAreStatus2() async throws {
        let (directory, publicKey) = try await Self.directory(rules: #"portolan.app { id = "root", children = { { id = "home" } } }"#)
        defer { directory.remove() }
        try directory.write("contract.lua", #"scenario("about stays", function() assert(portolan.route { "root", "about" }) end)"#)
        let run = try await Self.install(directory, publicKey, ["--contract", "contract.lua"])
        #expect(run.status == 1 && run.stdout.hasPrefix("rejected at stage 5 (scenarios): contract scenario failed: contract.lua: about stays: "), "\(run.stdout)")
        let missing = try await PortolanBinary.run(["bundle", "install", "nowhere.bundle", "--app", "app.lua", "--public-key", publicKey], in: directory)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the bundle nowhere.bundle"))
        let badKey = try await PortolanBinary.run(["bundle", "install", "shop.bundle", "--app", "app.lua", "--public-key", "ed25519:secret"], in: directory)
        #expect(badKey.status == 2 && !badKey.stderr.contains("secret"), "\(badKey.stderr)")
    }
}
