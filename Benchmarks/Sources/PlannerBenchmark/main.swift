import BenchmarkSupport
import Portolan

// Planner benchmark: what a route costs to plan, on Portus's example and on deep chains of
// screens (to show that planning is linear in depth). Build and run in release:
//
//     swift run -c release --package-path Benchmarks PlannerBenchmark
//
// `--quick` runs fewer, shorter batches (a smoke test, not figures to quote); `--only portus` or
// `--only chain` runs one group (handy under `perf record`); `--seconds N` repeats the Portus
// measurement for about N seconds, for a profiler to sample.

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let profileSeconds = arguments.firstIndex(of: "--seconds").flatMap {
    arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil
}
var bench = quick ? Bench(batches: 5, minimumBatch: .milliseconds(2), warmUp: .milliseconds(5)) : Bench()
if let profileSeconds { bench.batches = max(1, profileSeconds * 1000 / 20) }

func runs(_ group: String) -> Bool {
    only == nil || only == group
}

/// Columns with a negative width are left-aligned, the others right-aligned.
func row(_ columns: [String], widths: [Int]) -> String {
    zip(columns, widths).map { column, width in
        let pad = String(repeating: " ", count: max(0, abs(width) - column.count))
        return width < 0 ? column + pad : pad + column
    }.joined(separator: "  ")
}

func format(_ nanoseconds: Double) -> String {
    nanoseconds >= 100 ? String(Int(nanoseconds.rounded())) : String(Double(Int(nanoseconds * 10)) / 10)
}

let widths = [-34, 6, 6, 10, 9, 22]
print(row(["benchmark", "depth", "instr", "ns/op", "ns/level", "spread (min–max)"], widths: widths))
print(String(repeating: "-", count: widths.map(abs).reduce(0, +) + 2 * (widths.count - 1)))

func report(_ measurement: Measurement, depth: Int?, instructions: Int?) {
    let perLevel = depth.map { format(measurement.nanoseconds / Double($0)) } ?? ""
    print(row([
        measurement.name, depth.map(String.init) ?? "", instructions.map(String.init) ?? "",
        format(measurement.nanoseconds), perLevel,
        "\(format(measurement.spread.lowerBound))–\(format(measurement.spread.upperBound))",
    ], widths: widths))
}

// (a) Portus example 1: from switchNode1 > node2 > switchNode3 > node12 to switchNode1 > node1 > node5 > node8.
if runs("portus") {
    var tree = RoutingTree(graph: try NavigationGraph(root: PortusTree.root))
    try tree.route(to: .path(["switchNode1", "node2", "switchNode3", "node12"]))
    let destination = Destination.path(["switchNode1", "node1", "node5", "node8"])
    let plan = try Planner.plan(from: tree, to: destination)
    guard plan.map(\.description)
        == ["leave switchNode3", "switch switchNode1 -> node1", "enter node5", "enter node8"]
    else { throw BenchmarkError.setup("unexpected Portus plan \(plan)") }
    let measurement = bench.measure("portus example 1 (plan)") {
        (try? Planner.plan(from: tree, to: destination))?.count ?? -1
    }
    report(measurement, depth: nil, instructions: plan.count)
}

// (b) and (c): chains of screens.
var setupNotes: [String] = []
for depth in [10, 100, 1_000] where runs("chain") && profileSeconds == nil {
    let graph = try ScreenChain.graph(depth: depth)
    let fullPath = ScreenChain.path(depth: depth)
    let rootOnly = RoutingTree(graph: graph)
    // Setting up is routing the tree down the chain (plan + RoutingTree.apply), timed once: it
    // is not the planner, but shows what executing a plan costs next to planning it.
    var deep = rootOnly
    let applying = try ContinuousClock().measure {
        try deep.route(to: .path(fullPath))
    }
    guard deep.activePath.count == depth else { throw BenchmarkError.setup("chain of \(depth) did not build") }
    setupNotes.append("depth \(depth): plan + apply of \(depth - 1) enters took \(format(Double(applying.nanoseconds) / 1e3)) µs "
        + "(\(format(Double(applying.nanoseconds) / Double(depth - 1))) ns per enter, cold, one run)")

    let down = Destination.path(fullPath)
    let downPlan = try Planner.plan(from: rootOnly, to: down)
    report(bench.measure("chain: enter root -> leaf (plan)") {
        (try? Planner.plan(from: rootOnly, to: down))?.count ?? -1
    }, depth: depth, instructions: downPlan.count)

    let up = Destination.path([Entry("s0")])
    let upPlan = try Planner.plan(from: deep, to: up)
    report(bench.measure("chain: leave leaf -> root (plan)") {
        (try? Planner.plan(from: deep, to: up))?.count ?? -1
    }, depth: depth, instructions: upPlan.count)

    report(bench.measure("chain: tree.activePath (floor)") {
        deep.activePath.count
    }, depth: depth, instructions: nil)
}

if !setupNotes.isEmpty {
    print("\nSetup, not the planner: routing a fresh tree root -> leaf (Planner.plan + RoutingTree.apply):")
    for note in setupNotes { print("  " + note) }
}
print("\n(checksum \(sink))")
