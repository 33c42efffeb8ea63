import Portolan

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
    package mutating func add(path: [NodeID], in graph: NavigationGraph) {
        for id in path where graph[id] != nil {
            nodes.insert(id)
        }
        for (from, to) in zip(path, path.dropFirst()) {
            guard let declaration = graph[to] else { continue }
            if declaration.parent == from || graph[from]?.pushes.contains(to) == true {
                edges.insert(GraphEdgeID(from: from, to: to))
            } else if declaration.isAnywhere {
                anywhereEntries.insert(GraphEdgeID(from: from, to: to))
            }
        }
    }
}
