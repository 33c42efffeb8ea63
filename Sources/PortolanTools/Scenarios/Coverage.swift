import Portolan
import PortolanLua
import PortolanShipping

/// The coverage of a run: what its scenarios exercised of one app's declared graph, merged.
///
/// Merging adds per-scenario sets into counts (in how many scenarios each item was exercised), so
/// any order of the same scenarios gives an equal value; every list is in the graph's declaration
/// order (depth first from the root, then the nodes reachable from anywhere).
public struct Coverage: Sendable, Equatable {
    public let graph: NavigationGraph
    /// How many scenario records were merged.
    public private(set) var scenarios = 0
    /// How many merged scenarios declared an app again, so that part of them was not watched.
    public private(set) var scenariosWithReplacedRouter = 0
    public private(set) var nodeScenarios: [NodeID: Int] = [:]
    public private(set) var edgeScenarios: [GraphEdgeID: Int] = [:]
    public private(set) var anywhereScenarios: [GraphEdgeID: Int] = [:]
    public private(set) var switchScenarios: [GraphEdgeID: Int] = [:]
    public private(set) var patternScenarios: [CoveredPattern: Int] = [:]
    public private(set) var patternHits: [CoveredPattern: Int] = [:]

    /// Every item that can be covered, in declaration order.
    public let allNodes: [NodeID]
    public let allEdges: [GraphEdgeID]
    public let allSwitchTargets: [GraphEdgeID]
    public let allPatterns: [CoveredPattern]

    public init(graph: NavigationGraph) {
        self.graph = graph
        var order: [NodeID] = []
        var seen: Set<NodeID> = []
        // Iterative, so that a graph at the 1,000-level depth limit cannot exhaust the stack.
        var stack = ([graph.rootID] + graph.anywhereIDs).reversed().map { $0 }
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let declaration = graph[id] else { continue }
            order.append(id)
            stack.append(contentsOf: declaration.children.reversed())
        }
        allNodes = order
        var edges: [GraphEdgeID] = [], switches: [GraphEdgeID] = [], patterns: [CoveredPattern] = []
        // Each edge in the order of the node it leads to, as the drawing has them.
        for id in order {
            guard let declaration = graph[id] else { continue }
            if let parent = declaration.parent {
                edges.append(GraphEdgeID(from: parent, to: id))
                if graph[parent]?.kind == .switch { switches.append(GraphEdgeID(from: parent, to: id)) }
            }
            patterns += declaration.routes.map { CoveredPattern(node: id, pattern: $0) }
        }
        // Then each declared push, as the drawing has them after the tree's edges (a declared
        // child pushed again is its tree edge).
        for id in order {
            for pushed in graph[id]?.pushes ?? [] where graph[pushed]?.parent != id {
                edges.append(GraphEdgeID(from: id, to: pushed))
            }
        }
        allEdges = edges
        allSwitchTargets = switches
        allPatterns = patterns
    }

    public init(graph: NavigationGraph, records: some Sequence<ScenarioCoverage>) {
        self.init(graph: graph)
        for record in records { add(record) }
    }

    /// Adds one scenario's record.
    public mutating func add(_ record: ScenarioCoverage) {
        scenarios += 1
        if record.replacedRouter { scenariosWithReplacedRouter += 1 }
        for id in record.nodes { nodeScenarios[id, default: 0] += 1 }
        for edge in record.edges { edgeScenarios[edge, default: 0] += 1 }
        for edge in record.anywhereEntries { anywhereScenarios[edge, default: 0] += 1 }
        for edge in record.switchTargets { switchScenarios[edge, default: 0] += 1 }
        for (pattern, hits) in record.patternHits where hits > 0 {
            patternScenarios[pattern, default: 0] += 1
            patternHits[pattern, default: 0] += hits
        }
    }

    /// Adds another run's coverage of the same graph (another shard's, say).
    public mutating func merge(_ other: Coverage) {
        scenarios += other.scenarios
        scenariosWithReplacedRouter += other.scenariosWithReplacedRouter
        nodeScenarios.merge(other.nodeScenarios, uniquingKeysWith: +)
        edgeScenarios.merge(other.edgeScenarios, uniquingKeysWith: +)
        anywhereScenarios.merge(other.anywhereScenarios, uniquingKeysWith: +)
        switchScenarios.merge(other.switchScenarios, uniquingKeysWith: +)
        patternScenarios.merge(other.patternScenarios, uniquingKeysWith: +)
        patternHits.merge(other.patternHits, uniquingKeysWith: +)
    }

    // MARK: Reading

    public var coveredNodes: [NodeID] { allNodes.filter { nodeScenarios[$0] != nil } }
    public var uncoveredNodes: [NodeID] { allNodes.filter { nodeScenarios[$0] == nil } }
    public var coveredEdges: [GraphEdgeID] { allEdges.filter { edgeScenarios[$0] != nil } }
    public var uncoveredEdges: [GraphEdgeID] { allEdges.filter { edgeScenarios[$0] == nil } }
    public var coveredSwitchTargets: [GraphEdgeID] { allSwitchTargets.filter { switchScenarios[$0] != nil } }
    public var uncoveredSwitchTargets: [GraphEdgeID] { allSwitchTargets.filter { switchScenarios[$0] == nil } }
    public var coveredPatterns: [CoveredPattern] { allPatterns.filter { patternScenarios[$0] != nil } }
    public var uncoveredPatterns: [CoveredPattern] { allPatterns.filter { patternScenarios[$0] == nil } }

    /// Anywhere entries seen, ordered by the anywhere node's declaration, then the node below's.
    public var anywhereEntries: [GraphEdgeID] {
        let rank = Dictionary(allNodes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return anywhereScenarios.keys.sorted { a, b in
            let (ta, tb) = (rank[a.to] ?? .max, rank[b.to] ?? .max)
            if ta != tb { return ta < tb }
            let (fa, fb) = (rank[a.from] ?? .max, rank[b.from] ?? .max)
            if fa != fb { return fa < fb }
            return a.description < b.description
        }
    }

    /// The four scored categories, in report order.
    public var summary: [CoverageCount] {
        [
            CoverageCount(category: "nodes", covered: coveredNodes.count, total: allNodes.count),
            CoverageCount(category: "edges", covered: coveredEdges.count, total: allEdges.count),
            CoverageCount(category: "switch targets", covered: coveredSwitchTargets.count, total: allSwitchTargets.count),
            CoverageCount(category: "URL patterns", covered: coveredPatterns.count, total: allPatterns.count),
        ]
    }
}

// MARK: - A run's coverage

extension ScenarioRunner {
    /// The declared graph of `options.app`, loaded in a fresh host: what coverage is measured
    /// against.
    public func appGraph() async throws(HostError) -> NavigationGraph {
        guard let app = options.app else { throw HostError("coverage needs an app (--app)") }
        var configuration = options.host
        if configuration.moduleDirectory == nil {
            configuration.moduleDirectory = FilePaths.directory(of: app)
        }
        let host = try PortolanHost(configuration: configuration)
        // Loaded as every command loads an app (DESIGN.md, "Loading an app").
        let graph = try await AppLoadLimits.run(host) { () async throws(HostError) -> NavigationGraph? in
            try await host.perform { host throws(HostError) -> NavigationGraph? in
                host.setOutput { _ in }
                try host.loadApp(.file(app), instructionBudget: AppLoadLimits.scriptInstructionBudget)
                return host.graph
            }
        }
        guard let graph else { throw HostError("\(app) declares no app (portolan.app)") }
        return graph
    }

    /// The coverage of a run's results (those that ran with `options.coverage`).
    public static func coverage(of results: some Sequence<ScenarioResult>, graph: NavigationGraph) -> Coverage {
        Coverage(graph: graph, records: results.compactMap(\.coverage))
    }
}
