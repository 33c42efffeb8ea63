import Lua
import Portolan
import PortolanLua
import Testing

@Suite struct HostSmokeTests {
    @Test func routesThroughLuaHandlers() async throws {
        let host = try PortolanHost()
        let lines = Locked<[String]>([])
        await host.setOutput { line in lines.withLock { $0.append(line) } }
        try await host.loadApp(.source("""
            portolan.app {
              id = "root", kind = "switch", active = "a",
              children = {
                { id = "a", children = { { id = "b", enter = function(node, entry, info) print("enter " .. entry.id .. " " .. info.instruction) end } } },
                { id = "c" },
              },
            }
            """, chunkName: "app.lua"))
        let result = try await host.run("""
            local done = assert(portolan.route { "root", "a", "b" })
            return done[1], #done, table.concat(portolan.active_path(), ">")
            """, chunkName: "s.lua")
        #expect(result == ["\"enter b\"", "1", "\"root>a>b\""])
        #expect(lines.value == ["enter b enter b"])
    }
}
