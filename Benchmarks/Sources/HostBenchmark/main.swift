// The cost of each executed instruction through the Swift API when every node's handler is Lua,
// against the floor: a bare C lua_pcall of the same handler, `h = function() n = n + 1 end`.
// Both are measured in this one run, side by side. It also times one Lua observer of the
// `instruction` event, `portolan.on("instruction", function() n = n + 1 end)`, on the chain without
// handlers: what the observer adds per event, against the same floor (issue 24).
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/HostBenchmark
//
// `--only lua`, `--only none`, `--only observer` or `--only floor` runs that one measurement once
// (`--only loop`: the handler loop of HandlerLoop.swift, its three columns), `--rounds N` round
// trips (default 200), and prints what it executed: for callgrind, which counts the instructions
// of the timed part alone with `--toggle-collect='*timedRoutes*'` (or `'cluafloor_call_top'`).
// `--only tap` is a route's fixed cost: the chain is one level deep and has no handlers, so each
// route is one instruction, a tap, and pays the route's history, events, queue and hop almost whole;
// it prints nanoseconds per route.
import CLuaFloor
import Glibc
import Portolan
import PortolanLua

let depth = 50

/// A chain root > n1 > … > n50 where every node has Lua `enter` and `leave` handlers (`h`), or no
/// handlers at all; `observed`: `h` observes every `instruction` event.
func chainApp(withHandlers: Bool, observed: Bool = false, depth: Int = depth) -> String {
    let handlers = withHandlers ? "enter = h, leave = h, " : ""
    var source = "n = 0\nh = function() n = n + 1 end\n" + (observed ? "portolan.on(\"instruction\", h)\n" : "") + "portolan.app "
    for level in 0..<depth {
        source += "{ id = \"n\(level)\", \(handlers)children = { "
    }
    source += "{ id = \"n\(depth)\", \(handlers)}" + String(repeating: " } }", count: depth)
    return source
}

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let rounds = option("--rounds").flatMap { Int($0) } ?? 200
let only = option("--only")

/// Nanoseconds per executed instruction: route root → leaf, then leaf → root, `rounds` times.
/// `perRoute`: per route instead, on a chain one level deep without handlers (a route's fixed cost).
func instructionCost(withHandlers: Bool, observed: Bool = false, perRoute: Bool = false) async throws -> Double {
    let depth = perRoute ? 1 : depth
    let host = try PortolanHost()
    let app = chainApp(withHandlers: withHandlers, observed: observed, depth: depth)
    try await host.loadApp(.source(app, chunkName: "chain.lua"))
    let deep = Destination.path((0...depth).map { Entry("n\($0)") })
    let shallow = Destination.path([Entry("n0")])
    _ = await host.route(deep)
    _ = await host.route(shallow)
    let clock = ContinuousClock()
    var executed = 0
    let elapsed = try await clock.measure {
        executed = try await timedRoutes(host, deep: deep, shallow: shallow)
    }
    return Double(elapsed.nanoseconds) / Double(perRoute ? rounds * 2 : executed)
}

/// The timed part: `rounds` round trips, as one unit of work each way; how many instructions ran.
@inline(never)
func timedRoutes(_ host: PortolanHost, deep: Destination, shallow: Destination) async throws -> Int {
    var executed = 0
    for _ in 0..<rounds {
        executed += try await host.route(deep).get().count
        executed += try await host.route(shallow).get().count
    }
    return executed
}

/// Nanoseconds per bare lua_pcall of `h = function() n = n + 1 end`.
func bareCallCost() -> Double {
    guard let L = luaL_newstate() else { return .nan }
    defer { lua_close(L) }
    guard luaL_loadstring(L, "n = 0 h = function() n = n + 1 end return h") == LUA_OK, lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK else { return .nan }
    let calls = 2_000_000
    let clock = ContinuousClock()
    var failures: Int32 = 0
    let elapsed = clock.measure {
        for _ in 0..<calls { failures += cluafloor_call_top(L) }
    }
    return failures == 0 ? Double(elapsed.nanoseconds) / Double(calls) : .nan
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

func format(_ value: Double) -> String {
    String(Int(value.rounded()))
}

/// A ratio to one decimal.
func ratio(_ value: Double) -> String {
    String((value * 10).rounded() / 10)
}

/// The whole run. The main thread only blocks until it ends: a top-level `await` would make the
/// program's main async, and the runtime's wait for it (`sigsuspend` on a read-only mask) is what
/// valgrind cannot run, so callgrind could not count this benchmark.
func main() async throws {
    if let only {
        switch only {
        case "floor": print("floor: \(format(bareCallCost())) ns per call, 2000000 calls")
        case "lua", "none", "observer":
            let ns = try await instructionCost(withHandlers: only == "lua", observed: only == "observer")
            print("\(only): \(format(ns)) ns per instruction, \(rounds * 2 * depth) instructions")
        case "tap":
            let ns = try await instructionCost(withHandlers: false, perRoute: true)
            print("tap: \(format(ns)) ns per route, \(rounds * 2) routes of one instruction each")
        case "loop": try await printLoopComparison()
        default: print("--only takes lua, none, observer, tap, floor or loop")
        }
        return
    }

    // Median of five runs each, interleaved so that machine noise hits all three alike.
    var floor: [Double] = [], lua: [Double] = [], none: [Double] = [], observed: [Double] = []
    for _ in 0..<5 {
        floor.append(bareCallCost())
        lua.append(try await instructionCost(withHandlers: true))
        none.append(try await instructionCost(withHandlers: false))
        observed.append(try await instructionCost(withHandlers: false, observed: true))
    }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    let (floorNs, luaNs, noneNs, observedNs) = (median(floor), median(lua), median(none), median(observed))
    print("| measure | ns per call or instruction | × bare lua_pcall |")
    print("|---|---|---|")
    print("| bare C lua_pcall(h), h = function() n = n + 1 end | \(format(floorNs)) | 1.0 |")
    print("| executed instruction, Lua enter/leave handlers | \(format(luaNs)) | \(ratio(luaNs / floorNs)) |")
    print("| executed instruction, no handlers (engine alone) | \(format(noneNs)) | \(ratio(noneNs / floorNs)) |")
    print("| Lua handler share (difference) | \(format(luaNs - noneNs)) | \(ratio((luaNs - noneNs) / floorNs)) |")
    print("| executed instruction, no handlers, one Lua `instruction` observer | \(format(observedNs)) | \(ratio(observedNs / floorNs)) |")
    print("| one Lua observer, per event (difference) | \(format(observedNs - noneNs)) | \(ratio((observedNs - noneNs) / floorNs)) |")
    print("chain depth \(depth), \(rounds) round trips per run, median of 5 runs")
    print("")
    try await printLoopComparison()
}

Task.detached {
    do { try await main() } catch { print("HostBenchmark failed: \(error)") }
    exit(0)
}
while true { sleep(60) }
