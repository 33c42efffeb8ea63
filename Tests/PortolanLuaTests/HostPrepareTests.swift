import Lua
import Portolan
import PortolanLua
import Testing

/// `PortolanHost.prepare(app:)` compiles the module and an app on another thread, for start-up
/// time: a host made afterwards must behave exactly as one made without it.
@Suite struct HostPrepareTests {
    static let app = """
        portolan.app {
          id = "root", kind = "switch", active = "a",
          children = {
            { id = "a", children = { { id = "b", enter = function(node, entry) print("enter " .. entry.id) end } } },
            { id = "c" },
          },
        }
        """

    /// What a fresh host says after loading `source` as `chunkName` and routing to root > a > b.
    static func session(_ source: String, chunkName: String) async throws -> [String] {
        let host = try PortolanHost()
        let lines = Locked<[String]>([])
        await host.setOutput { line in lines.withLock { $0.append(line) } }
        try await host.loadApp(.source(source, chunkName: chunkName))
        let result = try await host.run("""
            local done = assert(portolan.route { "root", "a", "b" })
            return done[1], table.concat(portolan.active_path(), ">")
            """, chunkName: "s.lua")
        return result + lines.value
    }

    @Test func aPreparedAppRunsAsAnUnpreparedOne() async throws {
        let unprepared = try await Self.session(Self.app, chunkName: "unprepared.lua")
        #expect(unprepared == ["\"enter b\"", "\"root>a>b\"", "enter b"])
        PortolanHost.prepare(app: (source: Self.app, chunkName: "prepared.lua"))
        // Whether the host finds it compiled or compiles it itself, the session is the same.
        for _ in 0..<3 {
            #expect(try await Self.session(Self.app, chunkName: "prepared.lua") == unprepared)
        }
    }

    @Test func anAppThatDoesNotCompileFailsAsItWouldUnprepared() async throws {
        let broken = "portolan.app { id = \"root\",\n  children = { { id = 'a' }\n"
        PortolanHost.prepare(app: (source: broken, chunkName: "broken.lua"))
        var messages: [String] = []
        for _ in 0..<2 {
            do {
                _ = try await Self.session(broken, chunkName: "broken.lua")
                Issue.record("a chunk with a syntax error loaded")
            } catch let error as HostError {
                messages.append(error.message)
            }
        }
        try #require(messages.count == 2)
        #expect(messages[0].contains("broken.lua:3:"))
        #expect(messages[1] == messages[0])
    }
}
