import Portolan

/// Folds a search's expansions into its report: the findings in a fixed order with repeats of
/// one fault counted once, the screens no state showed, and the limits the run reached.
enum ExploreReporting {
    static func report(
        app: String, search: BreadthFirstSearch, catalog: ExploreCatalog, options: ExploreOptions, depth: Int, from: String?
    ) -> ExploreReport {
        var report = ExploreReport(app: app)
        report.from = from
        report.states = search.states
        report.edges = search.edges
        report.nodes = catalog.nodeOrder
        report.graph = catalog.graph
        for id in catalog.nodeOrder {
            report.destinations[id] = ExploreCatalog.destination(
                to: id, context: catalog.contexts[id]?.first ?? [:], in: catalog.graph, contexts: catalog.contexts)
        }
        report.transitions = search.actionsRun
        report.statesMet = search.statesMet
        report.statistics = search.statistics
        report.rechecked = search.rechecked
        report.recheck = options.recheck
        for path in search.states.distinctPaths {
            for entry in path { report.visitedNodes.insert(entry.id) }
        }
        var all = search.findings
        let cut = cutShort(search: search, options: options)
        for id in catalog.nodeOrder where !report.visitedNodes.contains(id) && !catalog.declaration.unreachable.contains(id) {
            let nearest = nearestState(to: id, in: search.states, graph: catalog.graph)
            all.append(ExploreFinding(
                kind: .unreachable, state: nearest, path: search.states[safe: nearest]?.pathText ?? "", action: nil,
                evidence: "no explored state shows '\(id)'" + (cut.map { "; \($0), which may show it" } ?? ""), node: id))
        }
        fold(all, into: &report)
        report.limitsReached = limits(search: search, options: options, depth: depth)
        return report
    }

    /// The first state, in breadth-first order, that shows the deepest of the node's ancestors: where
    /// a route to the node is nearest to arriving, and the state changes that route needs (a
    /// login) are on the way there.
    private static func nearestState(to id: NodeID, in states: VisitedStates, graph: NavigationGraph) -> Int {
        let ancestors = graph.lineage(of: id).dropLast()
        var best = (index: 0, depth: -1)
        for (index, state) in states.enumerated() {
            let shown = Set(state.path.map(\.id))
            let depth = ancestors.lastIndex { shown.contains($0) }.map { $0 - ancestors.startIndex } ?? -1
            if depth > best.depth { best = (index, depth) }
        }
        return best.index
    }

    /// Why the run may not have seen all there is, when a limit stopped it: a screen it did not
    /// show may lie beyond.
    private static func cutShort(search: BreadthFirstSearch, options: ExploreOptions) -> String? {
        if !search.frontier.isEmpty { return "the depth limit \(options.depth) left \(states(search.frontier.count, verb: false)) unexplored" }
        if !search.dropped.isEmpty { return "the state limit \(options.states) left \(states(search.dropped.count, verb: false)) unexplored" }
        if search.cutByTime > 0 { return "the time limit left \(states(search.cutByTime, verb: false)) unexplored" }
        return nil
    }

    /// One finding per fault: the first of each kind with the same evidence (a raise at one line),
    /// the same action (a plan that disagrees wherever it is asked), or the same path.
    private static func fold(_ findings: [ExploreFinding], into report: inout ExploreReport) {
        var firstOf: [String: Int] = [:]
        var kept: [ExploreFinding] = []
        var repeats: [Int] = []
        for finding in findings {
            var keys = finding.foldKeys
            switch finding.kind {
            case .deadEnd: keys = [finding.path]
            case .snapshotLoss: if keys.isEmpty { keys = [finding.path] }
            case .unreachable: keys = [finding.node ?? ""]
            default: if keys.isEmpty { keys = [finding.action?.description ?? ""] }
            }
            keys = keys.map { "\(finding.kind.rawValue) \($0)" }
            if let index = keys.lazy.compactMap({ firstOf[$0] }).first {
                repeats[index] += 1
                for key in keys where firstOf[key] == nil { firstOf[key] = index }
            } else {
                for key in keys { firstOf[key] = kept.count }
                kept.append(finding)
                repeats.append(0)
            }
        }
        let order = kept.indices.sorted { (kept[$0].kind, $0) < (kept[$1].kind, $1) }
        report.findings = order.map { kept[$0] }
        report.repeats = order.map { repeats[$0] }
    }

    private static func limits(search: BreadthFirstSearch, options: ExploreOptions, depth: Int) -> [String] {
        var limits: [String] = []
        if !search.frontier.isEmpty {
            limits.append("depth \(options.depth): \(states(search.frontier.count)) visited at depth \(depth), not explored")
        }
        if !search.dropped.isEmpty {
            limits.append("states \(options.states): \(states(search.dropped.count, more: true)) met and not kept")
        }
        let cut = search.cutByTime
        if cut > 0 {
            let seconds = options.seconds.rounded() == options.seconds && abs(options.seconds) < 1e15 ? "\(Int64(options.seconds))" : "\(options.seconds)"
            limits.append("time \(seconds) s: \(states(cut)) not explored, or not wholly")
        }
        let unrestored = search.unrestored
        if unrestored > 0 {
            limits.append("\(states(unrestored)) not explored: the restore did not give \(unrestored == 1 ? "it" : "them") back (snapshot-loss)")
        }
        return limits
    }

    /// `1 state was`, `3 more states were`; without the verb, `1 state`.
    private static func states(_ count: Int, more: Bool = false, verb: Bool = true) -> String {
        "\(count) \(more ? "more " : "")state\(count == 1 ? (verb ? " was" : "") : (verb ? "s were" : "s"))"
    }
}
