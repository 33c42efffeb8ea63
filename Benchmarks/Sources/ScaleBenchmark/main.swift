import BenchmarkSupport
import Portolan
import PortolanLua

// What grows when it should not (issue 24): one route's cost against the app's size and against
// the history limit, each row a ratio to its anchor timed in the same run.
//
//     swift build -c release --package-path Benchmarks && Benchmarks/.build/release/ScaleBenchmark
//
// `--quick` runs short batches (a smoke test); `--only apps|history` one group, for callgrind
// (`--toggle-collect='*routeTrip*'`, with `--size N` for one app size).

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
// `--size N` times the apps group at that one size (with the 10-node anchor skipped), for callgrind.
let onlySize = arguments.firstIndex(of: "--size").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }

/// An app of `size` nodes whose routed part is always the same: `root > tabs`, a switch node
/// whose tabs are `a > b > c`, `z`, and as many filler screens as make up the size. A switch node
/// keeps one slot per declared child for the stacks it keeps, so its size is the app's here.
func app(size: Int) throws -> NavigationGraph {
    let filler = (0..<max(0, size - 6)).map { NodeSpec.screen("f\($0)") }
    let tabs = NodeSpec.switch("tabs", active: "a", keepsStacks: true, [.screen("a", [.screen("b", [.screen("c")])]), .screen("z")] + filler)
    return try NavigationGraph(root: .screen("root", [tabs]))
}

let deep = Destination.path([Entry("root"), Entry("tabs"), Entry("a"), Entry("b"), Entry("c")])
let shallow = Destination.path([Entry("root"), Entry("tabs"), Entry("z")])

/// Two routes: to `z` (a switch, `a > b > c` kept in its tab) and back (a switch). Returns the
/// instructions run.
@inline(never)
func routeTrip(_ router: Router) -> Int {
    var executed = 0
    if case .success(let instructions) = router.routeNow(to: deep) { executed += instructions.count }
    if case .success(let instructions) = router.routeNow(to: shallow) { executed += instructions.count }
    return executed
}

/// Nanoseconds per route on `router`, measured on its own thread.
func routeCost(_ router: Router, _ name: String, quick: Bool) async throws -> Double {
    let measured = await router.thread.run { () -> Double? in
        let bench = quick ? Bench(batches: 5, minimumBatch: .milliseconds(2), warmUp: .milliseconds(5)) : Bench()
        guard routeTrip(router) >= 2 else { return nil }
        return bench.measure(name) { routeTrip(router) }.nanoseconds / 2
    }
    guard let measured else { throw BenchmarkError.setup("\(name): a round trip failed") }
    return measured
}

func format(_ nanoseconds: Double) -> String {
    String(Double(Int((nanoseconds / 100).rounded())) / 10) + " µs"
}

func ratio(_ value: Double) -> String {
    String(Double(Int((value * 100).rounded())) / 100) + "×"
}

print("| measure | µs per route | × anchor |")
print("|---|---|---|")
if only == nil || only == "apps" {
    var anchor = 0.0
    for size in onlySize.map({ [$0] }) ?? [10, 1_000, 100_000] {
        let router = Router(graph: try app(size: size))
        let cost = try await routeCost(router, "app of \(size)", quick: quick)
        if size == 10 { anchor = cost }
        print("| route, app of \(size) nodes | \(format(cost)) | \(ratio(cost / anchor)) |")
    }
}
if only == nil || only == "history" {
    var anchor = 0.0
    let graph = try app(size: 10)
    for limit in [100, 10_000] {
        let router = Router(graph: graph, configuration: RouterConfiguration(historyLimit: limit))
        // The history full before the timing starts, so every route drops the oldest record.
        _ = await router.thread.run { for _ in 0..<(limit / 2 + 1) { _ = routeTrip(router) } }
        let cost = try await routeCost(router, "history \(limit)", quick: quick)
        if limit == 100 { anchor = cost }
        print("| route, history = \(limit) (full) | \(format(cost)) | \(ratio(cost / anchor)) |")
    }
}
if only == nil || only == "host" {
    var anchor = 0.0
    for size in [10, 100_000] {
        let cost = try await hostRouteCost(size: size, quick: quick)
        if size == 10 { anchor = cost }
        print("| route through `PortolanHost`, Lua app of \(size) nodes | \(format(cost)) | \(ratio(cost / anchor)) |")
    }
}
print("checksum \(sink)")

/// The same app as `app(size:)`, declared by a Lua script, its screens with Lua `enter` and
/// `leave` handlers.
func luaApp(size: Int) -> String {
    """
    n = 0
    h = function() n = n + 1 end
    local tabs = { { id = 'a', enter = h, leave = h, children = { { id = 'b', enter = h, leave = h,
      children = { { id = 'c', enter = h, leave = h } } } } }, { id = 'z', enter = h, leave = h } }
    for i = 0, \(size - 7) do tabs[#tabs + 1] = { id = 'f' .. i } end
    portolan.app { id = 'root', children = { { id = 'tabs', kind = 'switch', active = 'a', keep = true, children = tabs } } }
    """
}

/// Nanoseconds per route through a host whose app has `size` nodes, in one unit of work.
func hostRouteCost(size: Int, quick: Bool) async throws -> Double {
    let host = try PortolanHost()
    try await host.loadApp(.source(luaApp(size: size), chunkName: "scale.lua"))
    let measured = await host.perform { host -> Double? in
        let trip = { () -> Int in
            var executed = 0
            if case .success(let instructions) = host.route(deep) { executed += instructions.count }
            if case .success(let instructions) = host.route(shallow) { executed += instructions.count }
            return executed
        }
        guard trip() >= 2 else { return nil }
        let bench = quick ? Bench(batches: 5, minimumBatch: .milliseconds(2), warmUp: .milliseconds(5)) : Bench()
        return bench.measure("host \(size)") { trip() }.nanoseconds / 2
    }
    guard let measured else { throw BenchmarkError.setup("host \(size): a round trip failed") }
    return measured
}
