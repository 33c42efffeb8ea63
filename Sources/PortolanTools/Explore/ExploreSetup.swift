import Lua
import Portolan
import PortolanLua
import PortolanShipping

/// What an exploration starts from: the app's catalog of actions and the start state, read in
/// a host of its own (the app loaded as every command loads it, then the snapshot restored).
struct ExploreSetup: Sendable {
    let catalog: ExploreCatalog
    let start: ExploreState

    static func prepare(app: String, options: ExploreOptions, from: [UInt8]?) async throws(HostError) -> ExploreSetup {
        let host = try await options.startHost(app: app)
        let literals = ScenarioLiterals(files: options.scenarioFiles)
        return try await host.perform { host throws(HostError) -> ExploreSetup in
            host.setOutput { _ in }
            guard let graph = host.graph else { throw HostError("\(app) declares no app (portolan.app)") }
            let catalog = ExploreCatalog(
                graph: graph, declaration: host.exploreDeclaration, literals: literals,
                steps: Set(host.flows.flatMap(\.steps)).sorted(), examples: options.examplesPerNode)
            if let from {
                let outcome = host.restore(from)
                if case .refused(let reason) = outcome { throw HostError("the snapshot to start from was refused: \(reason)") }
            }
            let captured = ExploreHostSession.capture(host)
            guard let start = captured.state else {
                throw HostError("cannot take a snapshot of the start: \(captured.error ?? "no app")")
            }
            return ExploreSetup(catalog: catalog, start: start)
        }
    }
}
