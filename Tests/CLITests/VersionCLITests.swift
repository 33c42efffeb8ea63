import Foundation
import Lua
import Portolan
import Testing

/// `portolan --version`: Portolan's version and the Lua release it runs, for checking against Lua's bug list.
@Suite struct VersionCLITests {
    @Test func versionNamesPortolanAndTheLinkedLuaRelease() async throws {
        let run = try await PortolanBinary.run(["--version"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = run.stdout.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n"), "one line")
        let form = /^portolan (\d+\.\d+\.\d+) \((Lua \d+\.\d+\.\d+)(, built against Lua \d+\.\d+\.\d+)?\)$/
        let match = try #require(line.wholeMatch(of: form), "\(line)")
        #expect(String(match.1) == PortolanVersion.current)
        // The same library, asked by this process: its identity string, and `_VERSION` from inside Lua.
        #expect(String(match.2) == LuaState.release)
        let luaVersion = try LuaState().run("return _VERSION")
        try #require(luaVersion.count == 1)
        #expect(String(match.2).hasPrefix("\(luaVersion[0].stringValue ?? "?").") )
    }

    @Test func helpOffersVersion() async throws {
        let run = try await PortolanBinary.run(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--version"))
    }
}
