import Portolan
import PortolanLua
import Synchronization

/// One declared URL route pattern: its text, as declared, and the node it leads to.
public struct CoveredPattern: Hashable, Sendable, CustomStringConvertible {
    public var node: NodeID
    public var pattern: String

    public init(node: NodeID, pattern: String) {
        self.node = node
        self.pattern = pattern
    }

    /// `/movies/:id<int> (movie)`.
    public var description: String { "\(pattern) (\(node))" }
}

/// What one scenario exercised, as sets: merging scenarios is a union, so the merged coverage
/// does not depend on the order they ran in (`--jobs`) or on how they were split (`--shard`).
///
/// - **nodes**: every node that was on the active path at some moment: after the app loaded
///   (the root and its initial active children), or after any instruction ran, routed or
///   reported by the host. A switch node's children that were never active do not count.
/// - **edges**: declared parent → child edges whose two ends were next to each other on the
///   active path at some moment (so the initial path's edges count).
/// - **anywhere entries**: a node reachable from anywhere entered on top of another (the node
///   below → the anywhere node); they are not declared edges, so they are listed, not scored.
/// - **switch targets**: switch node → child pairs that a `switch` instruction ran for. A
///   switch node's initial active child does not count until something switches to it.
/// - **patterns**: declared URL patterns that a URL routed to (`portolan.route(url)`, or the
///   host's `route(url:)`) matched, with how many times, whether or not the route then passed
///   its interceptors.
public struct ScenarioCoverage: Sendable, Equatable {
    public var nodes: Set<NodeID> = []
    public var edges: Set<GraphEdgeID> = []
    public var anywhereEntries: Set<GraphEdgeID> = []
    public var switchTargets: Set<GraphEdgeID> = []
    /// How many URLs matched each pattern.
    public var patternHits: [CoveredPattern: Int] = [:]
    /// Set when the scenario declared an app again (a reload, a second `portolan.app`): what it
    /// did after that ran on a router coverage was not watching.
    public var replacedRouter = false

    public init() {}

    /// Adds an active path: its nodes, and the edges between neighbours.
    mutating func add(path: [NodeID], in graph: NavigationGraph) {
        for id in path where graph[id] != nil {
            nodes.insert(id)
        }
        for (from, to) in zip(path, path.dropFirst()) {
            guard let declaration = graph[to] else { continue }
            if declaration.parent == from {
                edges.insert(GraphEdgeID(from: from, to: to))
            } else if declaration.isAnywhere {
                anywhereEntries.insert(GraphEdgeID(from: from, to: to))
            }
        }
    }
}

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

/// One category's score: `12/16 (75%)`.
public struct CoverageCount: Sendable, Equatable, CustomStringConvertible {
    public var category: String
    public var covered: Int
    public var total: Int

    public init(category: String, covered: Int, total: Int) {
        self.category = category
        self.covered = covered
        self.total = total
    }

    /// Rounded down, so that 100% means everything; nil when there is nothing to cover.
    public var percent: Int? {
        total == 0 ? nil : covered * 100 / total
    }

    /// `75%`, or `n/a` when there is nothing to cover.
    public var percentText: String { percent.map { "\($0)%" } ?? "n/a" }

    /// `12/16 (75%)`.
    public var ratio: String { "\(covered)/\(total) (\(percentText))" }

    /// `nodes 12/16 (75%)`.
    public var description: String { "\(category) \(ratio)" }
}

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
        let loaded = await withTimeout(options.timeout, grace: options.grace, interrupting: host.interruption) { start in
            await host.perform { host -> Result<NavigationGraph, HostError> in
                start()
                host.setOutput { _ in }
                do throws(HostError) {
                    try host.loadApp(file: app)
                } catch {
                    return .failure(error)
                }
                guard let graph = host.graph else { return .failure(HostError("\(app) declares no app (portolan.app)")) }
                return .success(graph)
            }
        }
        guard case .finished(let graph) = loaded else {
            throw HostError("\(app) did not load within \(Self.seconds(options.timeout))")
        }
        return try graph.get()
    }

    /// The coverage of a run's results (those that ran with `options.coverage`).
    public static func coverage(of results: some Sequence<ScenarioResult>, graph: NavigationGraph) -> Coverage {
        Coverage(graph: graph, records: results.compactMap(\.coverage))
    }
}
