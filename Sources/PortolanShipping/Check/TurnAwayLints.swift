import PortolanLua

// Lints of what guards and interceptors decide: `goes_to` tests of undeclared nodes, which are always
// false, nodes a guard or an interceptor always turns away, and decisions that change state.

extension AppLinter {
    mutating func checkGoesTo() {
        for test in facts.goesTo where firstByID[test.id] == nil {
            report(.error, .unknownNodeInGuard, line: test.line,
                   "goes_to('\(test.id)') names a node that is not declared, so it is always false\(suggestion(for: test.id))")
        }
    }

    /// Nodes a guard or an interceptor always turns away, unless the app starts on them.
    mutating func checkTurnAways() {
        let initial = initialActivePath()
        for turnAway in facts.guardTurnAways {
            for item in visited where item.node.line == turnAway.nodeLine && item.node.fields[HandlerName.guard.rawValue] == "function" {
                guard let id = item.node.id, !initial.contains(id) else { continue }
                report(.warning, .unreachableNode, line: item.line,
                       "no route can reach '\(id)'\(below(item)): its guard (line \(turnAway.line)) always does \(turnAway.action)")
            }
        }
        for turnAway in facts.interceptTurnAways {
            guard let item = firstByID[turnAway.id], !initial.contains(turnAway.id) else { continue }
            report(.warning, .unreachableNode, line: item.line,
                   "no route can reach '\(turnAway.id)'\(below(item)): an interceptor (line \(turnAway.line)) does \(turnAway.action) "
                   + "for every route that goes to it")
        }
    }

    /// A decision that visibly changes something: `portolan.plan` runs it too, so what it changes
    /// changes without a route, and a plan no longer tells what the route will do.
    mutating func checkDecisionEffects() {
        for effect in facts.decisionEffects {
            report(.warning, .decisionSideEffect, line: effect.line,
                   "\(effect.decision) at line \(effect.decisionLine) \(effect.what): decisions run for plans too "
                   + "(request.dry_run), so they must only decide; act in a handler or an observer instead")
        }
    }

    /// `, nor the nodes below it (a, b)` when it has any.
    private func below(_ item: Visited) -> String {
        var ids: [String] = []
        func visit(_ node: RecordedNode) {
            for child in node.children ?? [] {
                if let id = child.id { ids.append(id) }
                visit(child)
            }
        }
        visit(item.node)
        guard !ids.isEmpty else { return "" }
        return " or the nodes below it (" + ids.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }

    /// The root and the active children of switch nodes from it, as the app starts.
    private func initialActivePath() -> Set<String> {
        var path: Set<String> = []
        var current: RecordedNode? = app.root
        while let node = current, let id = node.id, path.insert(id).inserted {
            guard node.isSwitch, let children = node.children, !children.isEmpty else { break }
            current = children.first { $0.id == node.active } ?? (node.active == nil ? children.first : nil)
        }
        return path
    }
}
