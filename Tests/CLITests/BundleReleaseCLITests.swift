import Foundation
import TestSupport
import Testing

/// What a release manager runs (issue 33): `bundle build --check` signs nothing whose rules fail
/// the gate's stages 3 to 5, and `bundle rollback` ships an earlier bundle's rules as a new
/// version, which devices whose floor is above the earlier one take.
@Suite struct BundleReleaseCLITests {
    @Test func buildWithCheckSignsNothingWhoseScenariosFail() async throws {
        let (directory, _) = try await BundleInstallCLITests.directory(rules: BundleInstallCLITests.app)
        defer { directory.remove() }
        try Data(#"{"id": "com.example.shop", "version": 3, "entry": "app.lua", "scenarios": ["scenarios/news.lua"]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path("rules/bundle.json")))
        try FileManager.default.createDirectory(atPath: directory.path("rules/scenarios"), withIntermediateDirectories: true)
        try Data(#"scenario("news opens", function() assert(portolan.route { "root", "news" }) end)"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path("rules/scenarios/news.lua")))
        let checked = try await PortolanBinary.run(
            ["bundle", "build", "rules", "--key", "signing.key", "-o", "checked.bundle", "--check"], in: directory)
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.hasPrefix("not built: the rules fail stage 5 (scenarios): scenario failed: scenarios/news.lua: news opens"), "\(checked.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("checked.bundle")))
        // Without --check the build signs what it is given: checking is the release job's choice.
        let unchecked = try await PortolanBinary.run(["bundle", "build", "rules", "--key", "signing.key", "-o", "unchecked.bundle"], in: directory)
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
    }

    @Test func aRollbackIsTheEarlierRulesAsANewVersionThatInstalls() async throws {
        let (directory, publicKey) = try await BundleInstallCLITests.directory(
            rules: #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "news" } } }"#)
        defer { directory.remove() }
        // Version 3 passes its canary: the store's floor is 3, and version 3 offered again is a replay.
        let first = try await BundleInstallCLITests.install(directory, publicKey, ["--routes", "routes.txt"])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let rollback = try await PortolanBinary.run(
            ["bundle", "rollback", "shop.bundle", "--version", "5", "--key", "signing.key", "-o", "rollback.bundle"], in: directory)
        #expect(rollback.status == 0 && rollback.stdout == "built rollback.bundle: com.example.shop version 5, the rules of version 3\n",
                "\(rollback.stdout)\(rollback.stderr)")
        let installed = try await PortolanBinary.run(
            ["bundle", "install", "rollback.bundle", "--app", "app.lua", "--public-key", publicKey, "--store", "store",
             "--canary-routes", "10", "--routes", "routes.txt"], in: directory)
        #expect(installed.stdout.hasSuffix("accepted: com.example.shop version 5 (canary passed 10 routes)\n"), "\(installed.stdout)\(installed.stderr)")
        // Not above the earlier version, or not the team's: refused, nothing written.
        let low = try await PortolanBinary.run(
            ["bundle", "rollback", "shop.bundle", "--version", "3", "--key", "signing.key", "-o", "low.bundle"], in: directory)
        #expect(low.status == 1 && low.stdout.contains("is not above the earlier bundle's 3"), "\(low.stdout)")
        _ = try await PortolanBinary.run(["bundle", "keygen", "-o", "other.key"], in: directory)
        let foreign = try await PortolanBinary.run(
            ["bundle", "rollback", "shop.bundle", "--version", "9", "--key", "other.key", "-o", "foreign.bundle"], in: directory)
        #expect(foreign.status == 1 && foreign.stdout.contains("untrusted key"), "\(foreign.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("low.bundle")) && !FileManager.default.fileExists(atPath: directory.path("foreign.bundle")))
    }
}
