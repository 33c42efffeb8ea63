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

    /// A saved state with the tab bar on `watched`; `wishlist` keeps `stack`.
    static func document(stack: String, history: String, pending: String, state: String, hash: String = "sha256:a") -> String {
        let wishlist = stack.isEmpty ? #"{"id":"wishlist"}"# : #"{"active":0,"children":1,"id":"wishlist"},"# + stack
        return #"{"format":"portolan-snapshot/1","history":[],"pending":"# + pending + #","rules":{"hash":""# + hash
            + #"","version":2},"state":"# + state + #","switch_history":"# + history
            + #","tree":[{"active":1,"children":2,"id":"root"},{"id":"onboarding"},{"active":1,"children":2,"id":"dashboard"},"#
            + wishlist + #",{"id":"watched"}]}"#
    }

    @Test func diffListsKeptStacksSwitchHistoryPendingAndState() async throws {
        let directory = try TemporaryDirectory("snapshot-diff")
        defer { directory.remove() }
        try directory.write("a.json", Self.document(
            stack: #"{"context":{"id":42},"id":"wishlist_movie"}"#, history: #"{"dashboard":[{"id":"wishlist"}]}"#,
            pending: "null", state: #"{"cart":[1],"logged_in":false}"#))
        try directory.write("b.json", Self.document(
            stack: "", history: "{}", pending: #"{"path":[{"id":"root"},{"id":"dashboard"}]}"#,
            state: #"{"cart":[1],"logged_in":true,"theme":"dark"}"#))
        let run = try await PortolanBinary.run(["snapshot", "diff", directory.path("a.json"), directory.path("b.json")])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(run.stdout)")
        #expect(lines.contains("kept dashboard > wishlist: wishlist > wishlist_movie {id=42} -> wishlist"), "\(run.stdout)")
        #expect(lines.contains("switch history dashboard: wishlist -> (none)"), "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("pending: none -> 'root") }, "\(run.stdout)")
        #expect(lines.contains("state.logged_in: false -> true"), "\(run.stdout)")
        #expect(lines.contains(#"state.theme: (none) -> "dark""#), "\(run.stdout)")
    }

    @Test func migrateNotesRulesChangedWithoutAVersionBump() async throws {
        let directory = try TemporaryDirectory("snapshot-hash")
        defer { directory.remove() }
        // Written at the demo app's version 2, by files other than today's.
        try directory.write("saved.json", Self.document(stack: "", history: "{}", pending: "null", state: "null", hash: "sha256:older"))
        let run = try await PortolanBinary.run(["snapshot", "migrate", directory.path("saved.json"), "--app", "Examples/movies/app.lua"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  note: the rules changed without a version bump: the snapshot was written by version 2"), "\(run.stdout)")
        #expect(run.lastLine == "ok: the saved state survives these rules")
    }
}
