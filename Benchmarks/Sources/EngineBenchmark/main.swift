import BenchmarkSupport
import Portolan

// Engine benchmark: what the engine alone (Planner.route + RoutingTree.apply, no handlers) costs
// per executed instruction, on chains of screens of growing depth, against the floor: a bare C
// lua_pcall of `h = function() n = n + 1 end`. Both are measured in this one run, side by side.
//
//     swift build -c release --package-path Benchmarks && Benchmarks/.build/release/EngineBenchmark
//
// `--quick` runs fewer, shorter batches (a smoke test, not figures to quote); `--only DEPTH` times
// one chain and skips the floor (its ratio column is then meaningless), for a profiler.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let bench = quick ? Bench(batches: 5, minimumBatch: .milliseconds(2), warmUp: .milliseconds(5)) : Bench()
// `--only DEPTH` times that chain alone, for a profiler (`perf record`) to sample.
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
let depths = only.map { [$0] } ?? [10, 100, 1_000]

/// One round trip on a chain: plan root → leaf and apply every enter, then plan leaf → root and
/// apply every leave, each step as the router applies it (`RoutingTree.apply(_:step:)`, which uses
/// the node the planner resolved). Returns the instructions executed, or -1 when anything failed.
func roundTrip(_ tree: inout RoutingTree, down: Destination, up: Destination) -> Int {
    var executed = 0
    do {
        for destination in [down, up] {
            let route = try Planner.route(from: tree, to: destination)
            for step in route.instructions.indices {
                try tree.apply(route, step: step)
                executed += 1
            }
        }
    } catch {
        return -1
    }
    return executed
}

/// Nanoseconds per executed instruction of a round trip on a chain of `depth` screens.
func engineCost(depth: Int, bench: Bench) throws -> (nanoseconds: Double, spread: ClosedRange<Double>) {
    var tree = RoutingTree(graph: try ScreenChain.graph(depth: depth))
    let down = Destination.path(ScreenChain.path(depth: depth))
    let up = Destination.path([Entry("s0")])
    let expected = 2 * (depth - 1)
    guard roundTrip(&tree, down: down, up: up) == expected, tree.activePath == [Entry("s0")] else {
        throw BenchmarkError.setup("a round trip on a chain of \(depth) did not execute \(expected) instructions")
    }
    let measurement = bench.measure("depth \(depth)") { roundTrip(&tree, down: down, up: up) }
    let perInstruction = { (nanoseconds: Double) in nanoseconds / Double(expected) }
    return (perInstruction(measurement.nanoseconds),
            perInstruction(measurement.spread.lowerBound)...perInstruction(measurement.spread.upperBound))
}

func format(_ nanoseconds: Double) -> String {
    nanoseconds >= 100 ? String(Int(nanoseconds.rounded())) : String(Double(Int(nanoseconds * 10)) / 10)
}

func ratio(_ value: Double) -> String {
    String(Double(Int((value * 100).rounded())) / 100) + "×"
}

// The floor is measured before and after the engine rows; the lower of the two is the yardstick,
// so that noise can only make the engine look worse, never better.
let skipsFloor = only != nil
guard let floorBefore = skipsFloor ? 1 : LuaFloor.measure(bench, name: "floor") else {
    throw BenchmarkError.setup("Lua floor failed")
}
var engine: [(depth: Int, nanoseconds: Double, spread: ClosedRange<Double>)] = []
for depth in depths {
    let cost = try engineCost(depth: depth, bench: bench)
    engine.append((depth, cost.nanoseconds, cost.spread))
}
guard let floorAfter = skipsFloor ? 1 : LuaFloor.measure(bench, name: "floor") else {
    throw BenchmarkError.setup("Lua floor failed")
}
let floor = min(floorBefore, floorAfter)

print("| measure | ns per call or instruction | spread (min–max) | × bare lua_pcall |")
print("|---|---|---|---|")
print("| bare C lua_pcall of `h = function() n = n + 1 end` | \(format(floor)) | "
    + "\(format(floorBefore)) before, \(format(floorAfter)) after | 1.0× |")
for row in engine {
    print("| engine, plan + apply, chain depth \(row.depth) | \(format(row.nanoseconds)) | "
        + "\(format(row.spread.lowerBound))–\(format(row.spread.upperBound)) | \(ratio(row.nanoseconds / floor)) |")
}
if let shallow = engine.first, let deep = engine.last {
    print("\ndepth \(deep.depth) against depth \(shallow.depth), per instruction: \(ratio(deep.nanoseconds / shallow.nanoseconds))")
}
print("(a round trip is root → leaf then leaf → root; median of \(bench.batches) batches; checksum \(sink))")
