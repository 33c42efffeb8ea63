import Dispatch
import Portolan
import PortolanLua
import Synchronization
import Testing

/// The host's rules of docs/concurrency.md, one test each (the engine's are in
/// PortolanTests/ConcurrencyContractTests.swift).
@Suite struct HostConcurrencyContractTests {
    private static let app = """
        portolan.app { id = "root", children = {
          { id = "a", enter = function() probe() end },
          { id = "b" },
        } }
        portolan.on("did_route", function() probe() end)
        """

    /// Rule 1: what the app's code runs — a Lua handler, a Lua observer, a registered Swift
    /// function, an event observer — runs on the host's thread, inside the unit that routes.
    @Test func everythingTheAppRunsRunsOnTheHostsThread() async throws {
        let host = try PortolanHost()
        let onThread = Locked<[Bool]>([])
        let thread = Locked<SerialThread?>(nil)
        try await host.register(function: "probe") { _ in
            onThread.withLock { $0.append(thread.value?.isCurrent == true) }
            return []
        }
        try await host.loadApp(.source(Self.app, chunkName: "app.lua"))
        let router = try #require(await host.router)
        thread.withLock { $0 = router.thread }
        await host.observeEvents { _ in onThread.withLock { $0.append(router.thread.isCurrent) } }
        let result = await host.route(.path(["root", "a"]))
        #expect(result.success != nil, "\(result)")
        #expect(onThread.value.count >= 4, "\(onThread.value)")   // handler, events, observer
        #expect(!onThread.value.contains(false), "\(onThread.value)")
    }

    /// A Swift node whose `enter` awaits the host that routes it.
    struct AwaitsItsHost: Enterable {
        let host: PortolanHost
        func enter(_ entry: Entry, info: InstructionInfo) async throws {
            _ = try await host.run("return 1", chunkName: "=inner")
        }
    }

    /// Rule 3: an async Swift node that awaits its own host fails its route at once, saying why;
    /// before, it waited out the handler's time limit (here a minute) and failed as `timeout`.
    @Test func anAsyncNodeThatAwaitsItsOwnHostFailsAtOnce() async throws {
        let host = try PortolanHost(configuration: .init(handlerTimeout: .seconds(60)))
        try await host.register(function: "probe") { _ in [] }
        try await host.loadApp(.source(Self.app, chunkName: "app.lua"))
        await host.bind(AwaitsItsHost(host: host), to: "b")
        let result = await host.route(.path(["root", "b"]))
        #expect(result.failure?.kind == .handlerFailed, "\(result)")
        #expect(result.failure?.message.contains("awaited its own host") == true, "\(result)")
        // The host lives on: the next unit runs (the abandoned call too, after the route).
        #expect(try await host.run("return 2", chunkName: "=after") == ["2"])
    }
}
