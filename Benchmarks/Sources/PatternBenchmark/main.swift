// The sandbox's bounded string.find, match, gmatch and gsub (issue 10, item 3) against liblua5.4's own, on
// typical patterns, side by side in one run and one Lua state: the state opens every library and holds the
// bounded set as the global `bounded`. Each row times the same Lua loop calling one set or the other, with an
// instruction budget set (too large to trip), so the bounded set pays for its charging as it does in a host.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/PatternBenchmark
//
// `--quick` runs short batches: a smoke test, not figures to quote.
import BenchmarkSupport
import Foundation
import Lua

let quick = CommandLine.arguments.contains("--quick")
let bench = quick ? Bench(batches: 3, minimumBatch: .milliseconds(2), warmUp: .milliseconds(5)) : Bench()

/// One row: a Lua loop body run `calls` times per operation, `f` being the function under test and `text`
/// a 10 KB string of words.
struct Workload {
    var name: String
    var function: String
    var body: String
    var calls: Int
}

let workloads = [
    Workload(name: "match a route, ^/(%w+)/(%d+)$", function: "match", body: #"f("/users/42", "^/(%w+)/(%d+)$")"#, calls: 1000),
    Workload(name: "the same route pattern, no match", function: "match", body: #"f("/users/new", "^/(%w+)/(%d+)$")"#, calls: 1000),
    Workload(name: "find a key in a short line, (%w+)=(%w+)", function: "find", body: #"f("name=portolan; kind=router", "(%w+)=(%w+)")"#, calls: 1000),
    Workload(name: "gsub over 10 KB, %s+ → one space", function: "gsub", body: #"f(text, "%s+", " ")"#, calls: 1),
    Workload(name: "gsub over 10 KB, words → <%0>", function: "gsub", body: #"f(text, "%a+", "<%0>")"#, calls: 1),
    Workload(name: "gmatch word split of 10 KB, %a+", function: "gmatch", body: #"for _ in f(text, "%a+") do end"#, calls: 1),
    Workload(name: "plain find at the end of 10 KB", function: "find", body: #"f(text, "the end", 1, true)"#, calls: 1),
]

let state = try LuaState(sandboxed: false)
try state.setBoundedPatternFunctions(asGlobal: "bounded")
state.instructionBudget = 1 << 50
_ = try state.run("""
    local words = { "route", "screen", "guard", "handler", "node", "path", "tree", "portolan" }
    local parts, length = {}, 0
    while length < 10240 - 8 do
      local word = words[#parts % #words + 1]
      parts[#parts + 1] = word
      length = length + #word + 1
    end
    text = table.concat(parts, #parts % 3 == 0 and "  " or " ") .. " the end"
    """)

/// Nanoseconds per call of `workload` with the set named `library` (`string` or `bounded`).
@MainActor func nanosecondsPerCall(_ workload: Workload, _ library: String) throws -> Double {
    let loop = try state.load("""
        local f, calls = \(library).\(workload.function), \(workload.calls)
        return function() for _ = 1, calls do \(workload.body) end return calls end
        """)
    guard case .function(let run) = try state.call(loop).first else { throw LuaError(.runtime, "no loop") }
    let measurement = bench.measure("\(library) \(workload.name)") {
        (try? run.call().first?.intValue).flatMap { $0 }.map(Int.init) ?? 0
    }
    return measurement.nanoseconds / Double(workload.calls)
}

func format(_ nanoseconds: Double) -> String {
    nanoseconds >= 10_000 ? "\(Int((nanoseconds / 1000).rounded())) µs" : "\(Int(nanoseconds.rounded())) ns"
}

print("| workload | liblua5.4 | bounded | × liblua5.4 |")
print("|---|---|---|---|")
var ratios: [Double] = []
for workload in workloads {
    // Stock, bounded, stock: the lower stock time is the yardstick, so a slow moment does not flatter the bounded.
    let stock = min(try nanosecondsPerCall(workload, "string"), try nanosecondsPerCall(workload, "string"))
    let bounded = try nanosecondsPerCall(workload, "bounded")
    ratios.append(bounded / stock)
    print("| \(workload.name) | \(format(stock)) | \(format(bounded)) | \(String(format: "%.2f", bounded / stock)) |")
}
let geometricMean = exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
print("geometric mean of the ratios: \(String(format: "%.2f", geometricMean)); median of \(bench.batches) batches per row")
