import Portolan
import PortolanLua
import Synchronization
import Testing

/// A reload is one transaction (`RulesReload`): one that fails leaves every part of the rules,
/// on both sides of the bridge, as it was.
@Suite struct RulesReloadTests {
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// Every kind of rule an app script registers, each saying which version it is.
    static func app(_ version: String, extraNode: String = "", then ending: String = "") -> String {
        """
        portolan.app { id = "root", children = {
          { id = "a", route = "/a", enter = function() log("\(version) enter a") end },
          { id = "b", route = "/b" },
          { id = "secret", route = "/secret" },\(extraNode)
        } }
        portolan.intercept(function(request)
          if request:goes_to("secret") then return portolan.deny("\(version) denies") end
        end)
        portolan.on("did_route", function() log("\(version) observed") end)
        portolan.redirect_rule("/films/:id", "\(version == "v1" ? "/a" : "/b")")
        portolan.redirect_rule(function(url) if url == "/old" then return "\(version == "v1" ? "/a" : "/b")" end end)
        portolan.flow { name = "\(version)", steps = { go = function() return { "root", "\(version == "v1" ? "a" : "b")" } end } }
        \(ending)
        """
    }

    @Test func aFailedReloadLeavesEveryPartAsItWas() async throws {
        let log = Log()
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.register(function: "log") { arguments in
            log.append(arguments.compactMap(\.stringValue).joined(separator: " "))
            return []
        }
        try await host.loadApp(.source(Self.app("v1"), chunkName: "app.lua"))
        let router = try #require(await host.router)
        let graph = await host.graph
        let flows = await host.flowLines
        #expect(flows == ["flow v1: go"])

        // The new version declares its app and registers every rule anew, then fails.
        await #expect(throws: HostError.self) {
            try await host.reload(
                .source(Self.app("v2", extraNode: #" { id = "c" },"#, then: #"error("the new version is broken")"#), chunkName: "app.lua"))
        }

        #expect(await host.router === router, "the router in service stays")
        #expect(await host.graph == graph, "the graph stays")
        #expect(await host.flowLines == flows, "the flows stay")
        #expect(await host.resolve(url: "/films/7").success?.destination == .path(["root", "a"]), "the redirect rules stay")
        #expect(await host.resolve(url: "/old").success?.destination == .path(["root", "a"]), "the function rules stay")
        let denied = await host.route(.path(["root", "secret"])).failure
        #expect(denied?.message == "v1 denies", "the interceptors stay")
        let stepped = try await host.run(#"return table.concat(assert(portolan.step("go")), ",")"#, chunkName: "s.lua")
        #expect(stepped == [#""enter a""#], "the flows route as before")
        #expect(log.all == ["v1 enter a", "v1 observed"], "the nodes and observers stay")
    }
}
