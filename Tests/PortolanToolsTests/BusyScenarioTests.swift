import PortolanTools
import Testing
import TestSupport
import PortolanShipping

/// Issue 18, finding 4: a scenario cut while busy inside C library calls stops at its interrupt
/// (every such call charges its work and polls), so its thread is not left spinning, and the
/// honest scenarios of the same run pass whatever the cut ones did.
extension ScenarioRunnerTests {
    @Test func scenariosBusyInLibraryCallsAreCutAndHonestOnesPass() async throws {
        let busy = [
            #"local s = ("a"):rep(1 << 24) while true do utf8.len(s) end"#,
            #"local s = ("a"):rep(1 << 24) while true do s:find("b", 1, true) end"#,
            "local t = {} for i = 1, 1e6 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end",
            "while true do table.move({}, 1, 1 << 25, 2, {}) end",
            #"local t, big = {}, ("a"):rep(1 << 14) for i = 1, 3000 do t[i] = big .. i end while true do table.sort(t) end"#,
            #"local s = ("a"):rep(1 << 22) while true do local _ = s:upper() .. s:lower() end"#,
        ]
        var file = busy.enumerated().map { #"scenario("busy \#($0.offset + 1)", function() \#($0.element) end)"# }
        file += (1...4).map { #"scenario("honest \#($0)", function() expect(portolan.route { "root", "other" }, { "switch root -> other" }) end)"# }
        let directory = try TemporaryDirectory("scenarios", files: ["app.lua": Self.app, "s.lua": file.joined(separator: "\n")])
        defer { directory.remove() }
        let app = directory.path("app.lua")
        let entries = await ScenarioRunner(options: .init(app: app, timeout: .seconds(60))).entries(files: [directory.path("s.lua")])
        let runner = ScenarioRunner(options: .init(app: app, timeout: .seconds(3), grace: .seconds(3), jobs: 2))
        let results = await runner.run(entries: entries)
        try #require(results.count == 10, "\(results.map(\.name))")
        for result in results.prefix(6) {
            // "(cut …)": it stopped when interrupted, within the grace; an abandoned one says only
            // "timed out after 3 s".
            #expect(Self.message(result)?.hasPrefix("timed out after 3 s (cut") == true, "\(result)")
        }
        for result in results.suffix(4) {
            #expect(result.outcome == .passed, "\(result)")
        }
    }
}
