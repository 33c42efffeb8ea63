import Lua
import Portolan
import PortolanLua
import TestSupport

/// Runs a batch of a soak's routes on one app's host, inside one unit of work, checking the tree
/// after each: half by id path (the graph's nodes, with the contexts the app reads; now and then
/// an anywhere entry or a node that does not exist), half by URL (what the patterns match, the
/// app's old links, stray URLs), and a few `back()` and `resume()`.
struct SoakDriver: Sendable {
    let app: SoakedApp
    let witness: TreeWitness
    let seed: UInt64

    /// Runs the routes `indices` (of the whole soak); returns what they came to, and the first
    /// broken invariant, if any, with the route's index.
    func run(_ indices: Range<Int>, on host: isolated PortolanHost) -> (SoakCounts, (Int, String)?) {
        var counts = SoakCounts()
        guard let graph = host.graph, let router = host.router else { return (counts, (indices.lowerBound, "no app")) }
        let ids = RouteTargets.nodeIDs(of: graph)
        let patterns = ids.flatMap { graph[$0]?.routes ?? [] }
        for index in indices {
            var random = SeededRandom.forInput(index, seed: seed)
            if !app.switches.isEmpty && random.oneIn(40) {
                let name = random.element(app.switches), value = random.oneIn(2)
                _ = try? host.call("local name, value = ... portolan.state[name] = value", chunkName: "=soak",
                                     arguments: [.string(name), .boolean(value)])
                counts.switchesFlipped += 1
            }
            let (label, result) = route(graph, ids, patterns, &random, &counts, on: host)
            switch result {
            case .success?: counts.succeeded += 1
            case .failure(let failure)?:
                counts.failures[failure.kind, default: 0] += 1
                if failure.rollbackFailure != nil { counts.rollbackFailures += 1 }
                if failure.message.isEmpty { return (counts, (index, "\(label) failed as \(failure.kind) without a message")) }
            case nil: counts.nothingPending += 1
            }
            if let problem = witness.check(router.tree) { return (counts, (index, "after \(label): \(problem)")) }
        }
        return (counts, nil)
    }

    private func route(
        _ graph: NavigationGraph, _ ids: [NodeID], _ patterns: [String], _ random: inout SeededRandom,
        _ counts: inout SoakCounts, on host: isolated PortolanHost
    ) -> (String, RouteResult?) {
        counts.routes += 1
        switch random.int(in: 0...99) {
        case 0..<48:
            counts.byIDPath += 1
            let destination = idPath(graph, ids, &random)
            return ("the route to \(destination)", host.route(destination))
        case 48..<96:
            counts.byURL += 1
            let url = self.url(patterns, &random)
            return ("the route to URL \(url.debugDescription)", host.route(url: url))
        case 96..<98:
            counts.back += 1
            return ("back", host.back())
        default:
            counts.resume += 1
            return ("resume", host.resume())
        }
    }

    private func idPath(_ graph: NavigationGraph, _ ids: [NodeID], _ random: inout SeededRandom) -> Destination {
        let id = random.element(ids)
        switch random.int(in: 0...19) {
        case 0: return .ids(graph.rootID, "nowhere")
        case 1: return .path(graph.lineage(of: id).dropFirst().map { Entry($0) })   // not from the root
        case 2...3: return .anywhere(Entry(id, context: app.context(id, &random)))
        default: return RouteTargets.path(to: id, in: graph) { app.context($0, &random) }
        }
    }

    private func url(_ patterns: [String], _ random: inout SeededRandom) -> String {
        if random.oneIn(10) || patterns.isEmpty && app.extraURL == nil { return RouteTargets.strayURL(&random) }
        if let extraURL = app.extraURL, patterns.isEmpty || random.oneIn(2) { return extraURL(&random) }
        return RouteTargets.url(matching: random.element(patterns), &random) ?? RouteTargets.strayURL(&random)
    }
}

/// What a soak's routes came to.
public struct SoakCounts: Sendable {
    public var routes = 0, byIDPath = 0, byURL = 0, back = 0, resume = 0
    public var succeeded = 0
    public var failures: [RouteFailure.Kind: Int] = [:]
    /// Failed routes whose undo failed in turn (the tree then reflects what ran of both).
    public var rollbackFailures = 0
    /// `resume()` with nothing pending: no route.
    public var nothingPending = 0
    /// Values of the app's state flipped between routes (`portolan.state.logged_in` …).
    public var switchesFlipped = 0

    mutating func add(_ other: SoakCounts) {
        routes += other.routes
        byIDPath += other.byIDPath
        byURL += other.byURL
        back += other.back
        resume += other.resume
        succeeded += other.succeeded
        failures.merge(other.failures, uniquingKeysWith: +)
        rollbackFailures += other.rollbackFailures
        nothingPending += other.nothingPending
        switchesFlipped += other.switchesFlipped
    }
}
