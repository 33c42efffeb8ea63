// The rules bundle gate's two time numbers (issue 22):
// - the swap's pause: how long `updater.install` holds the host's thread, and with it the route
//   queue (`lastSwapPause`: the snapshot, the new rules' load, the restore under them), for a
//   200-node app (the snapshot benchmark's: 3 tabs of 65 screens, every stack open, 68 deep);
//   200 installs, each a new version, alternating two texts of the rules; p50, p99 and the worst;
// - the gate's time for 50 scenarios: `host.checkBundle` (stages 1 to 5) of a bundle with one
//   scenario file of 50 scenarios, each routing to the deepest screen of a tab; the median of 5.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/BundleBenchmark
import BenchmarkSupport
import Foundation
import Portolan
import PortolanLua
import PortolanShipping

func app(_ variant: Int) -> String { KeptTabsApp.source(header: "-- variant \(variant)\n") }

func path(tab: Int) -> Destination { KeptTabsApp.path(tab: tab) }

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}

func bundle(version: Int, key: BundleSigningKey, scenarios: String? = nil) throws -> [UInt8] {
    var files = ["app.lua": Array(app(version % 2).utf8)]
    if let scenarios { files["scenarios/all.lua"] = Array(scenarios.utf8) }
    let manifest = BundleManifest(
        id: "bench.rules", version: version, entry: "app.lua", files: [], scenarios: scenarios == nil ? [] : ["scenarios/all.lua"],
        canary: CanarySettings(routes: 0, maximumFailureRatio: 0))
    return try RulesBundle.encode(manifest, files: files, signingKey: key)
}

let key = BundleSigningKey()
let store = FileManager.default.temporaryDirectory.appendingPathComponent("portolan-bundle-bench-\(UInt32.random(in: 0...UInt32.max))").path
defer { try? FileManager.default.removeItem(atPath: store) }

let host = try PortolanHost()
await host.setOutput { _ in }
try await host.loadApp(.source(app(1), chunkName: "app.lua"))
for tab in 0..<3 { _ = try await host.route(path(tab: tab)).get() }

var pauses: [Double] = [], cpu: [Double] = []
let updater = RulesUpdater(host: host, publicKey: key.publicKey, options: BundleInstallOptions(store: BundleStore(directory: store)))
for version in 1...200 {
    let outcome = await updater.install(bundle: try bundle(version: version, key: key))
    guard case .accepted = outcome, let pause = updater.lastSwapPause else { print("install \(version): \(outcome.text)"); exit(1) }
    pauses.append(pause.milliseconds)
    cpu.append((updater.lastSwapCPUTime ?? .zero).milliseconds)
}
let active = await host.router?.activePath.count ?? 0
pauses.sort()
cpu.sort()
func percentile(_ p: Double, of sorted: [Double]) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
print("swap pause, 200-node app, path of \(active) kept through 200 swaps:")
print(String(format: "  p50 %.3f ms   p99 %.3f ms   max %.3f ms   (target: p99 <= 5 ms)", percentile(0.5, of: pauses), percentile(0.99, of: pauses), pauses.last ?? 0))
print("  \(pauses.filter { $0 > 5 }.count) of \(pauses.count) swaps over 5 ms")
print(String(format: "  the host thread's CPU time in it: p50 %.3f ms   p99 %.3f ms   max %.3f ms", percentile(0.5, of: cpu), percentile(0.99, of: cpu), cpu.last ?? 0))

var scenarios = ""
for index in 0..<50 {
    let tab = index % 3
    scenarios += "scenario(\"deep \(index)\", function() assert(portolan.route { \"root\", \"tabs\", \"tab\(tab)\" }) expect(portolan.active_path()[3], \"tab\(tab)\") end)\n"
}
let gated = try bundle(version: 1000, key: key, scenarios: scenarios)
var gateTimes: [Double] = []
let clock = ContinuousClock()
for _ in 0..<5 {
    let start = clock.now
    let outcome = await host.checkBundle(gated, publicKey: key.publicKey)
    guard case .passed = outcome else { print("gate: \(outcome.text)"); exit(1) }
    gateTimes.append((clock.now - start).milliseconds)
}
gateTimes.sort()
print("gate (stages 1-5), 50 scenarios: median \(String(format: "%.1f", gateTimes[2])) ms, fastest \(String(format: "%.1f", gateTimes[0])) ms, slowest \(String(format: "%.1f", gateTimes[4])) ms (target: <= 500 ms)")
