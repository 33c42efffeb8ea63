import Foundation
import Testing
import TestSupport

/// `portolan snapshot migrate` and `diff` through the built binary: what CI runs on saved states
/// of earlier releases (scripts/test.sh).
@Suite struct SnapshotCLITests {
    static let saved = "Examples/movies/snapshots/version-1.json"

    @Test func theDemoAppsVersion1StateSurvivesItsRules() async throws {
        let run = try await PortolanBinary.run(["snapshot", "migrate", Self.saved, "--app", "Examples/movies/app.lua"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("renamed 'favorites' → 'wishlist' (version 2)"))
        #expect(run.lastLine == "ok: the saved state survives these rules")
    }

    @Test func aRulesChangeThatBreaksTheStateFailsWithAClearMessage() async throws {
        let directory = try TemporaryDirectory("snapshot-cli")
        defer { directory.remove() }
        // The demo app without its migration: the version-1 state loses its tab undeclared.
        let app = try String(contentsOfFile: Repository.root + "/Examples/movies/app.lua", encoding: .utf8)
            .replacingOccurrences(of: #"renamed = { favorites = "wishlist", favorites_movie = "wishlist_movie" }, "#, with: "")
        try directory.write("app.lua", app)
        let run = try await PortolanBinary.run(["snapshot", "migrate", Repository.root + "/" + Self.saved, "--app", directory.path("app.lua")])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("undeclared: dropped 'favorites'"), "\(run.stdout)")
        #expect(run.lastLine.hasPrefix("error: the saved state breaks under these rules"))
    }

    @Test func diffAndUnreadableFiles() async throws {
        let same = try await PortolanBinary.run(["snapshot", "diff", Self.saved, Self.saved])
        #expect(same.status == 0 && same.stdout == "(the same state)\n", "\(same.stdout)\(same.stderr)")
        let missing = try await PortolanBinary.run(["snapshot", "migrate", "no-such.json", "--app", "Examples/movies/app.lua"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read no-such.json"))
    }
}
