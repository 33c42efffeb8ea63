import Portolan
import PortolanLua

/// Every action the explorer tries, for one app (docs/explore.md): the same routes, URLs, steps
/// and state changes in every state, then what depends on the state (the top screen's pushes, the
/// tab taps of the switches on the active path), in one fixed order.
struct ExploreCatalog: Sendable {
    let graph: NavigationGraph
    let declaration: ExploreDeclaration
    /// Example contexts per node, the app's first, then the scenarios', then the patterns'.
    let contexts: [NodeID: [Context]]
    /// The actions every state gets, in order.
    let fixed: [ExploreAction]
    /// Every declared node, depth first from the root, then the anywhere nodes: the order of reports.
    let nodeOrder: [NodeID]

    init(graph: NavigationGraph, declaration: ExploreDeclaration, literals: ScenarioLiterals, steps: [String], examples: Int) {
        self.graph = graph
        self.declaration = declaration
        nodeOrder = Self.order(of: graph)
        var urls: [String] = []
        var derived: [NodeID: [Context]] = [:]
        for id in nodeOrder {
            for pattern in graph[id]?.routes ?? [] {
                let samples = ExploreSamples.urls(for: pattern, of: id, in: graph)
                if let matching = samples.matching {
                    urls.append(matching)
                    if let entry = (try? graph.resolve(url: matching))?.destination.namedEntries.last, entry.id == id {
                        derived[id, default: []].append(entry.context)
                    }
                }
                urls.append(samples.other)
            }
        }
        var contexts: [NodeID: [Context]] = [:]
        for id in nodeOrder {
            var list = declaration.contexts[id] ?? []
            if list.isEmpty { list = (literals.contexts[id] ?? []) + (derived[id] ?? []) }
            var unique: [Context] = []
            for context in list where !unique.contains(context) { unique.append(context) }
            contexts[id] = unique.isEmpty ? [[:]] : Array(unique.prefix(examples))
        }
        self.contexts = contexts
        var actions: [ExploreAction] = []
        for id in nodeOrder {
            for context in contexts[id] ?? [[:]] {
                if let destination = Self.destination(to: id, context: context, in: graph, contexts: contexts) {
                    actions.append(.route(destination))
                }
            }
        }
        var seenURLs: Set<String> = []
        for url in declaration.urls + literals.urls + urls where seenURLs.insert(url).inserted {
            actions.append(.url(url))
        }
        actions += [.back, .refresh, .resume]
        for step in steps {
            let payloads = declaration.payloads[step] ?? literals.payloads[step] ?? []
            for payload in payloads.isEmpty ? [[:]] : Array(payloads.prefix(examples)) {
                actions.append(.step(name: step, payload: payload))
            }
        }
        for (key, values) in declaration.state {
            for value in values { actions.append(.setState(key: key, value: value)) }
        }
        fixed = actions
    }

    /// What tells this catalog from another (the app or a scenario file changed between a shard and
    /// the merge): the fingerprint of its fixed actions and its example contexts.
    var fingerprint: UInt64 {
        let examples = nodeOrder.map { id in (contexts[id] ?? []).map { Entry(id, context: $0).description }.joined(separator: "; ") }
        return ExploreState.fingerprint(of: Array((fixed.map(\.description) + examples).joined(separator: "\n").utf8))
    }

    /// The actions of a state: the fixed ones, then a push of each node the top screen pushes
    /// (as its launch mode says), an update in place of a keyed top screen to each of its other
    /// example contexts, then a tab tap on each other child of each switch on the active path.
    func actions(at path: [Entry]) -> [ExploreAction] {
        var actions = fixed
        if let top = path.last, let declaration = graph[top.id] {
            for pushed in declaration.pushes {
                for context in contexts[pushed] ?? [[:]] { actions.append(.route(.push(Entry(pushed, context: context)))) }
            }
            if !declaration.key.isEmpty {
                for context in contexts[top.id] ?? [] where context != top.context {
                    actions.append(.route(.update(Entry(top.id, context: context))))
                }
            }
        }
        for (index, entry) in path.enumerated() where graph[entry.id]?.kind == .switch {
            let active = index + 1 < path.count ? path[index + 1].id : nil
            for child in graph[entry.id]?.children ?? [] where child != active {
                actions.append(.tab(switchID: entry.id, child: child))
            }
        }
        return actions
    }

    /// A route to `id` with `context`, its ancestors with their first example: a path from the
    /// root, or for a node shown anywhere (and what is declared below one) a path from it.
    static func destination(to id: NodeID, context: Context, in graph: NavigationGraph, contexts: [NodeID: [Context]]) -> Destination? {
        let lineage = graph.lineage(of: id)
        guard let first = lineage.first else { return nil }
        let entries = lineage.map { node in Entry(node, context: node == id ? context : contexts[node]?.first ?? [:]) }
        if graph[first]?.isAnywhere == true, entries.count == 1 { return .anywhere(entries[0]) }
        return .path(entries)
    }

    /// Depth first from the root, then the nodes shown anywhere, each list in declaration order.
    static func order(of graph: NavigationGraph) -> [NodeID] {
        var order: [NodeID] = []
        var seen: Set<NodeID> = []
        var stack = Array(([graph.rootID] + graph.anywhereIDs).reversed())
        while let id = stack.popLast() {
            guard seen.insert(id).inserted, let declaration = graph[id] else { continue }
            order.append(id)
            stack.append(contentsOf: declaration.children.reversed())
        }
        return order
    }
}
