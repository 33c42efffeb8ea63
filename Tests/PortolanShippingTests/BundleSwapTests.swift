import Portolan
import PortolanLua
import PortolanShipping
import TestSupport
import Testing

/// The swap happens between two routes: a route in flight while an install is asked for ends
/// under the rules it started with, and the next route runs under the new ones.
@Suite struct BundleSwapTests {
    /// Old and new rules log each route they end, by the active screen ("old:slow", "new:home"),
    /// and each carry of the tree ("new:carried").
    static func app(_ label: String) -> String {
        """
        local state = portolan.initial_state { log = {} }
        portolan.on("did_route", function()
          local path = portolan.active_path()
          table.insert(state.log, "\(label):" .. path[#path])
        end)
        portolan.on("tree_carried", function() table.insert(state.log, "\(label):carried") end)
        portolan.app { id = "root", children = { { id = "home" }, { id = "slow" } } }
        """
    }

    /// A Swift node whose enter waits until the test lets it go.
    struct SlowScreen: Enterable {
        let entered: Locked<Bool>
        let released: Locked<Bool>

        func enter(_ entry: Entry, info: InstructionInfo) async throws {
            entered.withLock { $0 = true }
            while !released.value { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    static func waitFor(_ flag: Locked<Bool>) async throws {
        // Polled: the flag is set by the node's task, on the cooperative pool.
        while !flag.value { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aRouteInFlightEndsUnderTheOldRulesAndTheNextRunsUnderTheNew() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await PortolanHost.quiet(loading: Self.app("old"), configuration: HostConfiguration(handlerTimeout: .seconds(600)))
        let entered = Locked(false), released = Locked(false), gateReached = Locked(false)
        await host.bind(SlowScreen(entered: entered, released: released), to: "slow")
        // The bundle's scenario calls this: the gate's hosts have the live host's functions.
        try await host.register(function: "gate_reached") { _ in
            gateReached.withLock { $0 = true }
            return []
        }
        var fixture = BundleFixture().withApp(Self.app("new"))
        fixture.files["scenarios/about.lua"] = #"scenario("reaches", function() gate_reached() end)"#
        let route = Task { await host.route(.path(["root", "slow"])) }
        try await Self.waitFor(entered)
        let bytes = try fixture.bytes()
        let install = Task {
            await RulesUpdater(host: host, publicKey: fixture.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store.root))).install(bundle: bytes)
        }
        // The gate's reads of the live host (its nodes, functions and state) and then the swap queue
        // behind the route in flight, as every unit of work does; let it go once they had time to.
        try await Task.sleep(for: .milliseconds(100))
        released.withLock { $0 = true }
        let routed = await route.value
        #expect((try? routed.get()) != nil, "\(routed)")
        let outcome = await install.value
        #expect(outcome.name == "accepted", "\(outcome.text)")
        #expect(gateReached.value, "the bundle's scenario ran in the gate")
        _ = await host.route(.path(["root", "home"]))
        let log = try await host.run("return table.concat(portolan.state.log, ' ')", chunkName: "=test")
        // The route in flight ended under the old rules; the swap carried the state as a reload does
        // (the app has no guard: no route), which the new rules heard; the next route is theirs.
        #expect(log == [#""old:slow new:carried new:home""#])
    }
}
