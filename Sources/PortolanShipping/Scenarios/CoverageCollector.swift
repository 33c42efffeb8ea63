import Portolan
import PortolanLua
import Synchronization

/// Watches one scenario's host: its router's instructions and the URLs it routes to.
///
/// The router calls observers synchronously on whatever thread runs a route; hence the lock.
final class CoverageCollector: Sendable {
    private struct State {
        var coverage = ScenarioCoverage()
        var graph: NavigationGraph?
        var router: ObjectIdentifier?
    }

    private let state = Mutex(State())

    var snapshot: ScenarioCoverage { state.withLock { $0.coverage } }

    /// Starts watching the router of the app the host loaded; its active path now (after the app
    /// loaded) is covered.
    func attach(to host: isolated PortolanHost) {
        guard let router = host.router, let graph = host.graph else { return }
        state.withLock { state in
            state.graph = graph
            state.router = ObjectIdentifier(router)
            state.coverage.add(path: router.activePath.map(\.id), in: graph)
        }
        router.observe { [weak self, weak router] event in
            guard let self, let router else { return }
            switch event {
            case .instruction(let instruction), .hostReported(let instruction):
                self.record(instruction, path: router.activePath.map(\.id))
            default:
                break
            }
        }
        host.observeURLs { [weak self] resolution in
            self?.record(url: resolution)
        }
    }

    /// Notes whether the host still runs the router being watched.
    func detach(from host: isolated PortolanHost) {
        let current = host.router.map(ObjectIdentifier.init)
        state.withLock { state in
            if state.router != nil, current != state.router { state.coverage.replacedRouter = true }
        }
    }

    private func record(_ instruction: Instruction, path: [NodeID]) {
        state.withLock { state in
            guard let graph = state.graph else { return }
            if case .switch(let switchNode, to: let child) = instruction,
               graph[switchNode.id]?.declares(child: child.id) == true {
                state.coverage.switchTargets.insert(GraphEdgeID(from: switchNode.id, to: child.id))
            }
            state.coverage.add(path: path, in: graph)
        }
    }

    private func record(url resolution: URLResolution) {
        state.withLock { state in
            let key = CoveredPattern(node: resolution.node, pattern: resolution.pattern)
            state.coverage.patternHits[key, default: 0] += 1
        }
    }
}
