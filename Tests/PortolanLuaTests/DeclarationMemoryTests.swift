import Portolan
import PortolanLua
import Testing

/// Issue 24: `portolan.app` hands each node it checks straight to the host's builder of the graph,
/// with no description of the tree built in Lua (a table per node and four more for its lists),
/// so a wide app declares within little more Lua memory than its own tables take.
@Suite struct DeclarationMemoryTests {
    static let count = 20_000
    static let tables = """
        local h = function() end
        local tabs = { { id = 'first', enter = h, leave = h, route = { '/first', '/one' } } }
        for i = 2, \(count) do tabs[i] = { id = 'f' .. i, route = '/f' .. i } end
        app = { id = 'root', children = { { id = 'tabs', kind = 'switch', keep = true, children = tabs } } }
        """

    @Test func aWideAppDeclaresWithinLittleMoreLuaMemoryThanItsOwnTables() async throws {
        // The script's own tables, with the module loaded: measured in a host with room to spare.
        let probe = try PortolanHost()
        let shown = try await probe.run(
            Self.tables + "\ncollectgarbage() return math.floor(collectgarbage('count') * 1024)", chunkName: "=tables")
        #expect(shown.count == 1)
        let tablesBytes = try #require(Int(shown.first ?? ""))
        // Before, the descriptions alone took about 16 MiB at this size: four times this margin.
        let host = try PortolanHost(configuration: HostConfiguration(memoryLimit: tablesBytes + (4 << 20)))
        try await host.loadApp(.source(Self.tables + "\nportolan.app(app)", chunkName: "wide.lua"))
        #expect(await host.graph?.nodes.count == Self.count + 2)
        #expect(await host.graph?["first"]?.routes == ["/first", "/one"])
        #expect(await host.graph?["f20000"]?.parent == "tabs")
        #expect(await host.route(.path(["root", "tabs", "f2"])).success?.last == .switch("tabs", to: "f2"))
    }
}
