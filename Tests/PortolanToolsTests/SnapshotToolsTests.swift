import Foundation
import Portolan
import PortolanLua
import PortolanTools
import TestSupport
import Testing
import PortolanShipping

/// `portolan check`'s migration lints, `portolan snapshot migrate`'s verdict, and `:restore`'s notes.
@Suite struct SnapshotToolsTests {
    static let tabs = """
        children = { { id = "tabs", kind = "switch", keep = true, children = {
          { id = "home", children = { { id = "item" } } }, { id = "b", children = { { id = "list" } } } } } } }
        """

    @Test func checkFindsBrokenMigrations() async {
        let source = """
            portolan.app { id = "root", version = 5,
              migrations = { [2] = { renamed = { a = "ghost" } }, [3] = { removed = { "list" } },
                             [5] = { moved = { item = { "nowhere" } } }, [6] = {} },
            \(Self.tabs)
            """
        let report = await AppChecker.check(source: source, file: "app.lua")
        let messages = report.findings.filter { $0.code == .invalidMigration }.map(\.message)
        #expect(messages.count == 5, "\(messages)")
        #expect(messages.contains { $0.contains("renames 'a' to 'ghost', which the rules do not have") })
        #expect(messages.contains { $0.contains("removes 'list', which the rules still have") })
        #expect(messages.contains { $0.contains("moves 'item' under 'nowhere'") })
        #expect(messages.contains { $0.contains("migrations[6] is for a version after the rules' own") })
        #expect(messages.contains { $0.contains("no migration for version 4") })
    }

    @Test func checkAcceptsARenameChain() async {
        let source = """
            portolan.app { id = "root", version = 3,
              migrations = { [2] = { renamed = { a = "start" }, removed = { "promo" } }, [3] = { renamed = { start = "home" } } },
            \(Self.tabs)
            """
        let report = await AppChecker.check(source: source, file: "app.lua")
        #expect(report.findings.filter { $0.code == .invalidMigration }.isEmpty, "\(report.findings.map(\.message))")
    }

    @Test func migrateSaysWhetherTheSavedStateSurvives() async throws {
        let directory = try TemporaryDirectory()
        let v1 = Self.tabs.replacingOccurrences(of: #"id = "home""#, with: #"id = "a""#)
        let host = try await PortolanHost.quiet(loading: #"portolan.app { id = "root", "# + v1)
        _ = try await host.run(#"assert(portolan.route { "root", "tabs", "a", "item" })"#, chunkName: "s.lua")
        let saved = try await host.snapshotBytes()
        defer { directory.remove() }
        try directory.write("v2.lua", #"portolan.app { id = "root", version = 2, migrations = { [2] = { renamed = { a = "home" } } }, "# + Self.tabs)
        try directory.write("v2bad.lua", #"portolan.app { id = "root", version = 2, "# + Self.tabs)
        let declared = directory.path("v2.lua"), undeclared = directory.path("v2bad.lua")
        let good = try await SnapshotMigrationCheck.run(snapshot: saved, app: declared)
        #expect(good.survives)
        #expect(good.outcome.changes == [.renamed("a", to: "home", version: 2)])
        let bad = try await SnapshotMigrationCheck.run(snapshot: saved, app: undeclared)
        #expect(!bad.survives)
        #expect(bad.text.contains("undeclared: dropped 'a'"))
        #expect(bad.text.contains("error: the saved state breaks under these rules"))
        let garbage = try await SnapshotMigrationCheck.run(snapshot: Array("{".utf8), app: declared)
        #expect(!garbage.survives && garbage.outcome.name == "refused")
    }

    /// `:restore` says when the rules changed without a version bump: a snapshot of version 2
    /// written by other files than the app's.
    @Test func replRestoreNotesRulesChangedWithoutAVersionBump() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("app.lua", #"portolan.app { id = "root", version = 2, "# + Self.tabs)
        let repl = try await ReplSessionTests.Fixture(app: directory.path("app.lua"))
        await repl.feed(#"portolan.route { "root", "tabs", "b", "list" }"#, ":save " + directory.path("same.json"))
        let same = await repl.feed(":restore " + directory.path("same.json"))
        #expect(same == ["restored"], "\(same)")
        let saved = try String(contentsOfFile: directory.path("same.json"), encoding: .utf8)
        let other = saved.replacingOccurrences(of: #""hash":"sha256:"#, with: #""hash":"sha256:0"#)
        try #require(other != saved)
        try directory.write("other.json", other)
        let noted = await repl.feed(":restore " + directory.path("other.json"))
        #expect(noted.count == 1 && noted.first?.hasPrefix("restored; note: the rules changed without a version bump: ") == true, "\(noted)")
    }
}
