// `portolan explore`'s throughput (issue 23's number): actions explored per second on the demo app
// and on the fault fixture, next to the cost of one route of the same app through the Swift API.
// Each explored action runs twice (to see nondeterminism), after a restore of its state, and a
// route or URL is planned first: an action costs several routes, which the last column shows.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/ExploreBenchmark . [PRODUCTS,… [DEPTH]]
//
// The second table explores the generated shop (ShopApp.swift) with each number of products.
import Portolan
import PortolanLua
import PortolanTools

#if canImport(Glibc)
import Glibc
#endif

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."

/// `value` with `digits` decimals (no Foundation).
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return "\((value * scale).rounded() / scale)"
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Microseconds per route: `rounds` routes back and forth between two screens without waits.
func routeCost(app: String, between first: Destination, and second: Destination, rounds: Int = 2_000) async throws -> Double {
    let host = try PortolanHost()
    await host.setOutput { _ in }
    try await host.loadApp(.file(app))
    let clock = ContinuousClock()
    let start = clock.now
    for round in 0..<rounds { _ = await host.route(round % 2 == 0 ? first : second) }
    return (clock.now - start).seconds * 1e6 / Double(rounds)
}

func explore(_ app: String, depth: Int, jobs: Int) async throws -> (actions: Int, states: Int, seconds: Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let report = try await Explorer(app: app, options: .init(depth: depth, jobs: jobs)).run()
    return (report.transitions, report.states.count, (clock.now - start).seconds)
}

let demo = root + "/Examples/movies/app.lua"
let fixture = root + "/Examples/explore-faults/app.lua"
let demoRoute = try await routeCost(
    app: demo, between: .ids("root", "onboarding"), and: .anywhere(Entry("settings")))
let fixtureRoute = try await routeCost(
    app: fixture, between: .ids("root", "home", "landing"), and: .ids("root", "home", "other"))

print("| app | depth | jobs | states | actions | seconds | actions/s | one route (µs) | µs per action / route |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for (name, app, depth, route) in [("demo", demo, 3, demoRoute), ("fault fixture", fixture, 6, fixtureRoute)] {
    for jobs in [1, 2] {
        let run = try await explore(app, depth: depth, jobs: jobs)
        let perSecond = Double(run.actions) / run.seconds
        let ratio = (1e6 / perSecond) / route
        print("| \(name) | \(depth) | \(jobs) | \(run.states) | \(run.actions) | \(fixed(run.seconds, 2)) | "
            + "\(Int(perSecond)) | \(fixed(route, 1)) | \(fixed(ratio, 1)) |")
    }
}

// The shop (issue 36's targets): 18 screens to depth 6 with no state limit, and the same app with
// more example products, whose reachable states grow past 10⁴. Peak memory is the process's
// (`VmHWM`), so it holds the hosts and the binary too, not only the visited states.
func statusKiB(_ field: String) -> Int {
    var status: [UInt8] = []
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    while case let byte = getc(file), byte != EOF { status.append(UInt8(truncatingIfNeeded: byte)) }
    let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(field) }
    return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}

func peakKiB() -> Int { statusKiB("VmHWM:") }

/// Resident bytes once glibc has given back what it can (`malloc_trim`, looked up at run time: the
/// Glibc module leaves out malloc.h): after a run, with its report alive, less before it, about
/// what the report holds.
func residentAfterTrim() -> Int {
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    return statusKiB("VmRSS:") * 1024
}

print("")
print("| shop | depth | jobs | states | actions | seconds | actions/s | states/s | peak MiB | resident bytes per state after |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
let shopRuns = CommandLine.arguments.count > 2 ? CommandLine.arguments[2].split(separator: ",").compactMap { Int($0) } : [2, 8]
let shopDepth = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 6 : 6
for products in shopRuns {
    let path = "/tmp/portolan-shop-\(products).lua"
    try WholeFile.write(ShopApp.source(products: products), to: path)
    for jobs in [1, 2] {
        let residentBefore = residentAfterTrim()
        let clock = ContinuousClock()
        let start = clock.now
        var options = ExploreOptions(depth: shopDepth, states: Int.max, seconds: 3_600, jobs: jobs)
        options.keepsEdges = false
        let report = try await Explorer(app: path, options: options).run()
        let seconds = (clock.now - start).seconds
        let perState = (residentAfterTrim() - residentBefore) / max(1, report.states.count)
        print("| \(products) products | \(shopDepth) | \(jobs) | \(report.states.count) | \(report.transitions) | \(fixed(seconds, 1)) | "
            + "\(Int(Double(report.transitions) / seconds)) | \(Int(Double(report.states.count) / seconds)) | \(peakKiB() / 1024) | \(perState) |")
    }
}
