// A handler's tight loop through the host against the same loop in a plain liblua5.4 state, which is
// what `lua5.4` runs: the per-instruction trap of an always-set count hook shows as the ratio (issue 24,
// "the count hook is armed by a watchdog"). The third column is the plain state with a count hook of
// 1,000 set, as every handler call carried one before.
import CLuaFloor
import Portolan
import PortolanLua

/// 10^7 additions: 2 × 10^7 VM instructions (ADD and FORLOOP).
let loopBody = "local n = 0 for i = 1, 1e7 do n = n + i end total = n"

/// Nanoseconds one route into a node whose `enter` handler runs the loop takes (the route's own cost,
/// a few microseconds, is lost in the loop's tens of milliseconds).
func hostLoopNanoseconds() async throws -> Double {
    // The default budget (10 million instructions) would stop the loop; the time limit stays.
    let configuration = HostConfiguration(handlerInstructionBudget: 1_000_000_000)
    let host = try PortolanHost(configuration: configuration)
    let app = "portolan.app { id = 'root', children = { { id = 'spin', enter = function() \(loopBody) end } } }"
    try await host.loadApp(.source(app, chunkName: "loop.lua"))
    let spin = Destination.path([Entry("root"), Entry("spin")])
    let root = Destination.path([Entry("root")])
    let clock = ContinuousClock()
    var failure: RouteFailure?
    let elapsed = await clock.measure {
        if case .failure(let error) = await host.route(spin) { failure = error }
    }
    _ = await host.route(root)
    if let failure {
        print("the loop's route failed: \(failure)")
        return .nan
    }
    return Double(elapsed.nanoseconds)
}

/// Nanoseconds the same loop takes as one `lua_pcall` in a plain state, with or without a count hook.
func plainLoopNanoseconds(hooked: Bool) -> Double {
    guard let L = luaL_newstate() else { return .nan }
    defer { lua_close(L) }
    guard luaL_loadstring(L, "return function() \(loopBody) end") == LUA_OK, lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK else {
        return .nan
    }
    if hooked { cluafloor_sethook(L, 1000) }
    let clock = ContinuousClock()
    var failures: Int32 = 0
    let elapsed = clock.measure { failures = cluafloor_call_top(L) }
    return failures == 0 ? Double(elapsed.nanoseconds) : .nan
}

/// Median of seven runs of each, interleaved so that machine noise hits all three alike.
func printLoopComparison() async throws {
    var host: [Double] = [], plain: [Double] = [], hooked: [Double] = []
    for _ in 0..<7 {
        plain.append(plainLoopNanoseconds(hooked: false))
        host.append(try await hostLoopNanoseconds())
        hooked.append(plainLoopNanoseconds(hooked: true))
    }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    let (hostMs, plainMs, hookedMs) = (median(host) / 1e6, median(plain) / 1e6, median(hooked) / 1e6)
    print("| a handler's loop of 10^7 additions | ms | × lua5.4 |")
    print("|---|---|---|")
    print("| plain liblua5.4 state (what lua5.4 runs) | \(ratio(plainMs)) | 1.0 |")
    print("| through PortolanHost | \(ratio(hostMs)) | \(ratio(hostMs / plainMs)) |")
    print("| plain state with a count hook of 1000 set (every call before) | \(ratio(hookedMs)) | \(ratio(hookedMs / plainMs)) |")
    print("median of 7 runs each, interleaved")
}
