import Foundation
import PortolanLua
import Testing
import TestSupport

/// Issue 10, item 1: `portolan.load` used to read and run any file: `.env` (its `KEY="value"`
/// lines are Lua), `/etc/os-release`, `../outside/secret.lua`, and `/proc/self/maps`, whose syntax
/// error gave away the executable's address. It is now confined as `require` is. More traps, for
/// both, in ScriptFileEscapeTests.
@Suite struct ScriptFileConfinementTests {
    /// An app directory beside an `outside` one holding a secret, with a link from the app's
    /// directory to the secret.
    private static func layout() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        for directory in ["app", "app/screens", "app/folder.lua", "outside"] {
            try FileManager.default.createDirectory(atPath: root.path(directory), withIntermediateDirectories: true)
        }
        try root.write("app/app.lua", #"portolan.app { id = "root", children = { { id = "a" } } }"#)
        try root.write("app/more.lua", "loaded_more = true")
        try root.write("app/screens/list.lua", "loaded_list = true")
        try root.write("app/.env", #"API_KEY="s3cr3t""#)
        try root.write("outside/secret.lua", #"API_KEY="s3cr3t""#)
        try FileManager.default.createSymbolicLink(atPath: root.path("app/link.lua"), withDestinationPath: root.path("outside/secret.lua"))
        // Sparse: 17 MiB on paper, nothing on disk.
        let big = root.path("app/big.lua")
        FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        return root
    }

    private static func host(appIn root: TemporaryDirectory) async throws -> PortolanHost {
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.file(root.path("app/app.lua")))
        return host
    }

    /// What `portolan.load(path)` answers from a script: "ok", or its error message.
    private static func load(_ path: String, in host: PortolanHost) async throws -> String {
        let result = try await host.run("""
            local ok, why = pcall(function() portolan.load(\(String(reflecting: path))) end)
            return ok and "ok" or why
            """, chunkName: "scenario.lua")
        return try #require(result.first)
    }

    @Test func filesInsideTheAppsDirectoryLoad() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        let host = try await Self.host(appIn: root)
        #expect(try await Self.load("more.lua", in: host) == "\"ok\"")
        #expect(try await Self.load("screens/list.lua", in: host) == "\"ok\"")
        #expect(try await Self.load("./more.lua", in: host) == "\"ok\"")
        #expect(try await host.run("return loaded_more, loaded_list", chunkName: "check") == ["true", "true"])
    }

    @Test func pathsOutsideAreRefusedBeforeAnythingIsRead() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        let host = try await Self.host(appIn: root)
        for path in [
            "/etc/os-release", "/proc/self/maps", root.path("outside/secret.lua"), "../outside/secret.lua",
            "screens/../../outside/secret.lua", ".env", "app.lua\0.txt", "~/x.lua", "", ".lua",
            "/nonexistent/x.lua", String(repeating: "a/", count: 600) + "x.lua",
        ] {
            let answer = try await Self.load(path, in: host)
            #expect(answer.hasPrefix("\"scenario.lua:1: portolan.load: '"), "\(path): \(answer)")
            #expect(answer.contains("is refused: a script loads a .lua file by a path relative to the app's directory"), "\(path): \(answer)")
        }
        // The same words whether the file exists or not: nothing to learn about the outside.
        let existing = try await Self.load("/etc/os-release", in: host)
        let missing = try await Self.load("/etc/no-such-file", in: host)
        #expect(existing.replacingOccurrences(of: "os-release", with: "no-such-file") == missing)
        #expect(try await host.run("return API_KEY", chunkName: "check") == ["nil"])
    }

    @Test func aLinkLeadingOutsideTheDirectoryIsRefused() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        let host = try await Self.host(appIn: root)
        let answer = try await Self.load("link.lua", in: host)
        #expect(answer.contains("portolan.load: 'link.lua' in '\(root.path("app"))' is refused: a symbolic link"), "\(answer)")
        #expect(try await host.run("return API_KEY", chunkName: "check") == ["nil"])
    }

    /// Issue 18: a path is judged on its bytes. To Swift, `../` then a combining mark is one
    /// component (`/` and the mark make one character), not `..`; to the kernel it is `..`. The
    /// old check let it through to the file system, and told apart a file that existed outside
    /// (refused) from one that did not ("no file").
    @Test func aCombiningMarkDoesNotHideDotDot() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        try root.write("\u{301}secret.lua", #"API_KEY="s3cr3t""#)
        let host = try await Self.host(appIn: root)
        let existing = try await Self.load("../\u{301}secret.lua", in: host)
        let missing = try await Self.load("../\u{301}missing.lua", in: host)
        #expect(existing.contains("is refused: a script loads a .lua file by a path relative"), "\(existing)")
        #expect(existing.replacingOccurrences(of: "secret", with: "missing") == missing)
    }

    /// Issue 18: `more.lua` swapped for a link to a secret outside and back, as fast as a thread
    /// can, while a script loads it: the check was a `realpath` before the open, and could be won.
    /// Bounded by the number of loads, not by time.
    @Test func swappingAFileForALinkNeverRunsTheSecret() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.file(app + "/app.lua"))
        let stop = StopFlag()
        ScriptFileTraps.swapper(in: app, name: "swap.lua", stop: stop).start()
        defer { stop.raiseAndWait(); withExtendedLifetime(root) {} }
        let results = try await host.run("""
            local seen = {}
            for _ = 1, 1000 do
              local ok, result = pcall(portolan.load, "swap.lua")
              local outcome = ok and "inside" or result:match("is refused: (.*)$") or result:match("no file") or result
              seen[outcome] = (seen[outcome] or 0) + 1
            end
            local outcomes = {}
            for outcome in pairs(seen) do outcomes[#outcomes + 1] = outcome end
            table.sort(outcomes)
            return table.concat(outcomes, "|"), SECRET
            """, chunkName: "race.lua")
        try #require(results.count == 2)
        let outcomes = results[0].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: "|")
        let expected: Set<Substring> = ["inside", "a symbolic link on the way, and scripts follow none", "no file"]
        #expect(Set(outcomes).isSubset(of: expected), "\(results)")
        #expect(results[1] == "nil")
    }

    @Test func onlyRegularFilesUpTo16MiBAreRead() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        let host = try await Self.host(appIn: root)
        #expect(try await Self.load("folder.lua", in: host).contains("not a regular file"))
        #expect(try await Self.load("big.lua", in: host).contains("larger than 16 MiB"))
        #expect(try await Self.load("missing.lua", in: host).contains("portolan.load: no file 'missing.lua' in '"))
        // The host lives on: the next route works.
        #expect(try await host.run("return #assert(portolan.route { 'root', 'a' })", chunkName: "check") == ["1"])
    }

    /// A scenario without `--app` loads the app from its own directory; from then on the app's
    /// directory is the one its own loads come from.
    @Test func theFirstFileAScriptLoadsBecomesTheApp() async throws {
        let root = try Self.layout()
        defer { root.remove() }
        try root.write("app/loads_more.lua", #"portolan.load("more.lua") portolan.app { id = "r" }"#)
        let host = try PortolanHost()
        await host.setOutput { _ in }
        await host.setScriptDirectory(root.path("app"))
        #expect(try await Self.load("loads_more.lua", in: host) == "\"ok\"")
        #expect(try await host.run("return loaded_more, portolan.active_path()[1]", chunkName: "check") == ["true", "\"r\""])
    }
}
