import Foundation
import Portolan
import PortolanLua
import PortolanTools
import TestSupport
import Testing
import PortolanShipping

/// Every state the example scenarios reach round-trips exactly: `snapshot → restore → snapshot` is
/// byte-identical (issue 21's first number). The examples' apps run with an observer that prints a
/// snapshot after every route; each is restored into a fresh host of the same app. (Scenario
/// files that declare an app of their own are left out: their states belong to other rules. A
/// state whose restored handler routes on at once, as `onboarding_login {remembered=true}` logs in
/// and goes to the dashboard, is the app moving on, not a lost state: it is counted apart.)
@Suite struct SnapshotRoundTripTests {
    static let examples = [("Examples/movies/app.lua", "Examples/movies/scenarios")]

    /// Prints each snapshot in pieces: a scenario's output lines are cut past 4 KiB (BoundedOutput).
    static let observer = """

        portolan.on("did_route", function()
          local doc = portolan.snapshot()
          for i = 1, #doc, 3000 do print("SNAPSHOT+" .. doc:sub(i, i + 2999)) end
          print("SNAPSHOT.")
        end)
        """

    @Test(arguments: examples)
    func everyStateTheScenariosReachRoundTrips(app: String, scenarios: String) async throws {
        let directory = try TemporaryDirectory("roundtrip")
        defer { directory.remove() }
        let source = try String(contentsOfFile: Repository.root + "/" + app, encoding: .utf8)
        try directory.write("app.lua", source + Self.observer)
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/" + scenarios)
            .filter { $0.hasSuffix(".lua") }.sorted().map { Repository.root + "/" + scenarios + "/" + $0 }
            .filter { file in !((try? String(contentsOfFile: file, encoding: .utf8))?.contains("portolan.app") ?? true) }
        try #require(!files.isEmpty)
        let runner = ScenarioRunner(options: .init(app: directory.path("app.lua"), jobs: 2))
        let results = await runner.run(files: files)
        var snapshots: [String] = [], piece = ""
        for line in results.flatMap(\.output) {
            if line.hasPrefix("SNAPSHOT+") { piece += line.dropFirst(9) }
            if line == "SNAPSHOT." {
                snapshots.append(piece)
                piece = ""
            }
        }
        #expect(snapshots.count >= 20, "only \(snapshots.count) states")
        var mismatches: [String] = []
        var movedOn = 0
        for saved in Set(snapshots) {
            let host = try PortolanHost(configuration: AppLoadLimits.configuration)
            await host.setOutput { _ in }
            try await host.loadApp(.file(directory.path("app.lua")))
            // No state is set by hand: the snapshot brings the app's (`portolan.state`), which its guards read.
            let outcome = await host.restore(Array(saved.utf8))
            let again = String(decoding: try await host.snapshotBytes(), as: UTF8.self)
            let routes = { (text: String) in (try? SnapshotReader.document(from: Array(text.utf8)).get())?.routes.count ?? 0 }
            if outcome == .restored(guards: .passed), again != saved, routes(again) > routes(saved) {
                movedOn += 1
            } else if outcome != .restored(guards: .passed) || again != saved {
                mismatches.append("\(outcome)\n  saved: \(saved.prefix(400))\n  again: \(again.prefix(400))")
            }
        }
        #expect(movedOn * 20 <= Set(snapshots).count, "\(movedOn) states moved on by their own handlers")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Set(snapshots).count) states:\n\(mismatches.prefix(3).joined(separator: "\n"))")
    }
}
