#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzSupport

// The soak (issue 10), run by scripts/soak.sh from the repository's root: a million random routes
// by default over the demo app, the Portus tree and the soak's own failing app, the tree's
// invariants checked after each, the Lua heaps and the RSS sampled as it goes. The tests run the
// same code over 20,000 routes (Tests/PortolanLuaTests/SoakTests.swift):
//
//     swift run -c release --package-path Benchmarks Soak [--count ROUTES] [--seed S]

let arguments = FuzzArguments.commandLine(defaultCount: 1_000_000, defaultSeed: 0x50A4)
let stopwatch = Stopwatch()
let cpuAtStart = ProcessMemory.cpuSeconds
let soak = try await SoakRunner(
    apps: SoakedApp.standard(repository: "."), seed: arguments.seed, sampleEvery: max(100, arguments.count / 20))
print(SoakSample.header(soak.appNames))
print(soak.samples[0].row)
do {
    try await soak.run(routes: arguments.count) { sample in
        print(sample.row)
        fflush(nil)   // every stream: the table grows as it runs when the output is a file too
    }
} catch {
    print(error)
    exit(1)
}

let counts = soak.counts
let first = soak.samples[0], last = soak.samples[soak.samples.count - 1]
let kinds = counts.failures.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }
print("""

    seed \(arguments.seed): \(counts.routes) routes (\(counts.byIDPath) by id path, \(counts.byURL) by URL, \
    \(counts.back) back, \(counts.resume) resume of which \(counts.nothingPending) had nothing pending), \
    \(counts.switchesFlipped) globals flipped between them
    succeeded \(counts.succeeded); failed \(counts.routes - counts.succeeded - counts.nothingPending): \(kinds.joined(separator: ", ")); \
    \(counts.rollbackFailures) undos failed in turn
    the routers ran \(soak.witnessed.routes) routes (those handlers queued included), guards and interceptors redirected \
    \(soak.witnessed.redirects), \(soak.witnessed.rollbacks) failed routes were undone in full and found where they started
    Lua heap (KiB, after a full collection): \(soak.appNames.indices.map { "\(soak.appNames[$0]) \(first.luaBytes[$0] / 1024) → \(last.luaBytes[$0] / 1024)" }.joined(separator: ", ")); \
    all \(first.totalLuaBytes / 1024) → \(last.totalLuaBytes / 1024)
    RSS: \(first.residentBytes >> 20) MiB → \(last.residentBytes >> 20) MiB
    wall \(stopwatch.text), CPU \((ProcessMemory.cpuSeconds - cpuAtStart).rounded()) s
    the tree's invariants held after every route
    """)
