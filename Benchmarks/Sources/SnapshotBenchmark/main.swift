// Snapshot and restore of a 200-node app with 3 kept stacks, against one route of the same depth
// (issue 21's speed number). The app: a root, a tab bar that keeps its tabs' stacks, 3 tabs, each
// a chain of 65 screens (200 nodes). The state: every tab's stack open to its deepest screen, the
// third tab active (a path of 68 nodes, two stacks of 66 kept). No handlers: the cost is the
// engine's and the document's, through the Swift API (`PortolanHost`).
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/SnapshotBenchmark
import BenchmarkSupport
import Portolan
import PortolanLua

let rounds = 200

func app() -> String { KeptTabsApp.source() }

func path(tab: Int) -> Destination { KeptTabsApp.path(tab: tab) }

extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}

func measure(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<rounds { try await body() }
    return (clock.now - start).microseconds / Double(rounds)
}

let host = try PortolanHost()
try await host.loadApp(.source(app(), chunkName: "app.lua"))
for tab in 0..<3 { _ = try await host.route(path(tab: tab)).get() }
let saved = try await host.snapshotBytes()
let shallow = Destination.path(["root", "tabs", "tab2"])

var snapshot: [Double] = [], restore: [Double] = [], route: [Double] = [], read: [Double] = []
for _ in 0..<5 {
    snapshot.append(try await measure { _ = try await host.snapshotBytes() })
    // Each restore starts from the third tab's root, with the kept stacks as saved: its path's 65
    // enters run, then the kept stacks and histories are set, then the guard check.
    restore.append(try await measure {
        _ = await host.route(shallow)
        guard case .restored = await host.restore(saved) else { throw HostError("not restored") }
    })
    read.append(try await measure {
        guard case .success = SnapshotReader.document(from: saved) else { throw HostError("not read") }
    })
    route.append(try await measure {
        _ = await host.route(shallow)
        _ = try await host.route(path(tab: 2)).get()
    })
}
let median = { (values: [Double]) in values.sorted()[values.count / 2] }
let format = { (value: Double) in String((value * 10).rounded() / 10) }
print("| measure (200 nodes, 3 kept stacks, path depth 68) | µs | × one route |")
print("|---|---|---|")
print("| one route of the same depth (root of the tab → its deepest screen), with the route back | \(format(median(route))) | 1.0 |")
let size = try await host.snapshotBytes().count
print("| snapshot (\(size) bytes of canonical JSON: the tree and 5 routes) | \(format(median(snapshot))) | \(format(median(snapshot) / median(route))) |")
print("| restore (read, prepare, 65 enters, stacks, guard check), with the route back | \(format(median(restore))) | \(format(median(restore) / median(route))) |")
print("| of which reading the document (SnapshotReader: JSONReader, then its shape) | \(format(median(read))) | \(format(median(read) / median(route))) |")
print("\(rounds) rounds per run, median of 5 runs")
