// `portolan explore`'s throughput (issue 23's number): actions explored per second on the demo app
// and on the fault fixture, next to the cost of one route of the same app through the Swift API.
// Each explored action runs twice (to see nondeterminism), after a restore of its state, and a
// route or URL is planned first: an action costs several routes, which the last column shows.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/ExploreBenchmark
import Portolan
import PortolanLua
import PortolanTools

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
