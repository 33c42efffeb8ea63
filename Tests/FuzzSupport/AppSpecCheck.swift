import Portolan
import PortolanLua
import TestSupport

/// The properties of one app script, checked inside one unit of work of its host.
struct AppSpecCheck: Sendable {
    /// The app file the script stands for: errors must name it.
    let path: String

    static let goodApp = #"portolan.app { id = "good", children = { { id = "ok", route = "/ok" } } }"#

    func run(_ source: String, routeSeed: UInt64, on host: isolated PortolanHost) -> AppSpecOutcome {
        host.setOutput { _ in }
        do {
            try host.loadApp(.fileWithText(path, text: source))
        } catch {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count
            return refused(error, lines: lines, on: host)
        }
        return loaded(routeSeed: routeSeed, on: host)
    }

    /// A refusal names `app.lua` and a line of it, and the host loads a good app afterwards.
    private func refused(_ error: HostError, lines: Int, on host: isolated PortolanHost) -> AppSpecOutcome {
        var outcome = AppSpecOutcome()
        outcome.refusal = error.message
        guard let line = Self.line(in: error.message), (1...lines).contains(line) else {
            outcome.problem = "refused without naming a line of app.lua: \(error.message)"
            return outcome
        }
        do {
            try host.loadApp(.fileWithText(path, text: Self.goodApp))
        } catch {
            outcome.problem = "a good app does not load after '\(error.message)': \(error.message)"
            return outcome
        }
        guard host.graph?.rootID == "good", case .success = host.route(.ids("good", "ok")),
              host.router?.activePath.map(\.id) == ["good", "ok"] else {
            outcome.problem = "a good app loaded after '\(error.message)' does not route"
            return outcome
        }
        return outcome
    }

    /// The line an error names in `app.lua` (`…/app.lua:12: …`), or nil.
    static func line(in message: String) -> Int? {
        var rest = Substring(message)
        while let range = rest.range(of: "app.lua:") {
            rest = rest[range.upperBound...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == ":" { return Int(digits) }
        }
        return nil
    }

    /// A loaded app has a sound graph and tree, and keeps them through random routes.
    private func loaded(routeSeed: UInt64, on host: isolated PortolanHost) -> AppSpecOutcome {
        var outcome = AppSpecOutcome()
        outcome.loaded = true
        guard let graph = host.graph, let router = host.router else {
            outcome.problem = "loaded, but declared no graph"
            return outcome
        }
        outcome.nodes = graph.nodes.count
        if let problem = TreeInvariants.problem(in: graph) {
            outcome.problem = "the graph: \(problem)"
            return outcome
        }
        let witness = TreeWitness(router)
        if let problem = witness.check(router.tree) {
            outcome.problem = "the tree after loading: \(problem)"
            return outcome
        }
        var random = SeededRandom(seed: routeSeed)
        let ids = RouteTargets.nodeIDs(of: graph)
        for _ in 0..<6 {
            let (target, result) = route(graph, ids, &random, on: host)
            outcome.routes += 1
            if case .failure(let failure) = result {
                outcome.failures[failure.kind, default: 0] += 1
                if failure.message.isEmpty { outcome.problem = "\(target) failed as \(failure.kind) without a message" }
            }
            if let problem = witness.check(router.tree) { outcome.problem = "after \(target): \(problem)" }
            if outcome.problem != nil { return outcome }
        }
        return outcome
    }

    /// Routes somewhere at random: a node by its path, an anywhere entry, a URL a pattern
    /// matches, a URL that leads nowhere, or back.
    private func route(
        _ graph: NavigationGraph, _ ids: [NodeID], _ random: inout SeededRandom, on host: isolated PortolanHost
    ) -> (String, RouteResult) {
        let id = ids.isEmpty ? graph.rootID : random.element(ids)
        switch random.int(in: 0...9) {
        case 0...3:
            let destination = RouteTargets.path(to: id, in: graph) { _ in random.oneIn(3) ? ["id": .integer(1)] : [:] }
            return ("the route to \(destination)", host.route(destination))
        case 4:
            return ("the route to anywhere \(id)", host.route(.anywhere(Entry(id))))
        case 5...7:
            let patterns = graph[id]?.routes ?? []
            let url = patterns.isEmpty ? nil : RouteTargets.url(matching: random.element(patterns), &random)
            let target = url ?? RouteTargets.strayURL(&random)
            return ("the route to URL \(target.debugDescription)", host.route(url: target))
        case 8:
            let target = RouteTargets.strayURL(&random)
            return ("the route to URL \(target.debugDescription)", host.route(url: target))
        default:
            return ("back", host.back())
        }
    }
}
