import Portolan

/// Folds a search's expansions into its report: the findings in a fixed order with repeats of
/// one fault counted once, the screens no state showed, and the limits the run reached.
enum ExploreReporting {
    static func report(
        app: String, search: BreadthFirstSearch, expansions: [ExpandedState], catalog: ExploreCatalog,
        options: ExploreOptions, depth: Int, from: String?
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
        report.transitions = expansions.reduce(0) { $0 + $1.edges.count }
        for visited in search.states {
            for entry in visited.state.path { report.visitedNodes.insert(entry.id) }
        }
        var all = expansions.sorted { $0.index < $1.index }.flatMap(\.findings)
        for id in catalog.nodeOrder where !report.visitedNodes.contains(id) && !catalog.declaration.unreachable.contains(id) {
            all.append(ExploreFinding(
                kind: .unreachable, state: 0, path: search.states[0].state.pathText, action: nil,
                evidence: "no explored state shows '\(id)'", node: id))
        }
        fold(all, into: &report)
        report.limitsReached = limits(search: search, expansions: expansions, options: options, depth: depth)
        return report
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

    private static func limits(
        search: BreadthFirstSearch, expansions: [ExpandedState], options: ExploreOptions, depth: Int
    ) -> [String] {
        var limits: [String] = []
        if !search.frontier.isEmpty {
            limits.append("depth \(options.depth): \(states(search.frontier.count)) visited at depth \(depth), not explored")
        }
        if !search.dropped.isEmpty {
            limits.append("states \(options.states): \(states(search.dropped.count, more: true)) met and not kept")
        }
        let cut = expansions.filter(\.cutByTime).count
        if cut > 0 {
            let seconds = options.seconds.rounded() == options.seconds && abs(options.seconds) < 1e15 ? "\(Int64(options.seconds))" : "\(options.seconds)"
            limits.append("time \(seconds) s: \(states(cut)) not explored, or not wholly")
        }
        let unrestored = expansions.filter { $0.notExpanded != nil }.count
        if unrestored > 0 {
            limits.append("\(states(unrestored)) not explored: the restore did not give \(unrestored == 1 ? "it" : "them") back (snapshot-loss)")
        }
        return limits
    }

    /// `1 state was`, `3 more states were`.
    private static func states(_ count: Int, more: Bool = false) -> String {
        "\(count) \(more ? "more " : "")state\(count == 1 ? " was" : "s were")"
    }
}
