import Portolan

/// The checks of one action from one state (docs/explore.md, "Findings"): each looks at what the
/// action did, run twice, and says what it found.
enum ExploreChecks {
    /// A failure a handler, guard or interceptor caused by raising, running out of time or out of
    /// its budget. A handler's own `return false, why` is a decision, not a finding.
    static func isRaised(_ failure: RouteFailure) -> Bool {
        switch failure.kind {
        case .timeout: return true
        case .handlerFailed, .invalid:
            if isUnsettledRedirectChain(failure) { return false }
            return failure.message.contains("instruction budget exceeded") || failure.message.contains("not enough memory")
                || failure.message.contains(#/(^|[\s(])[^\s:()'"]+:[0-9]+: /#)
        default: return false
        }
    }

    /// A chain of redirects that never settles: guards or interceptors that keep redirecting, or
    /// redirect rules that keep rewriting, back to a location (a loop) or on past `max_redirects`.
    static func isUnsettledRedirectChain(_ failure: RouteFailure) -> Bool {
        failure.redirectChain != nil
    }

    /// One loop however it is entered: `a → b → a` from a and `b → a → b` from b go round the
    /// same locations, so both are written from the least of them.
    static func cycleKey(_ locations: [String]) -> String {
        guard let least = locations.indices.min(by: { locations[$0] < locations[$1] }) else { return "" }
        return "loop " + (locations[least...] + locations[..<least]).joined(separator: " → ")
    }

    /// What `plan` said against what the route did, when they disagree. A route that fails in a
    /// handler may have been planned to succeed: a plan stops before the handlers.
    static func planDisagreement(_ plan: RoutePlan, _ result: ExploreOutcome.Result) -> String? {
        switch (plan.result, result) {
        case (.success(let planned), .routed(let executed)):
            let planned = planned.map(\.description)
            return planned == executed ? nil
                : "plan: ok [\(planned.joined(separator: ", "))]; route: ok [\(executed.joined(separator: ", "))]"
        case (.success(let planned), .failed(let kind, let message)):
            if ["handler_failed", "timeout", "cancelled"].contains(kind) { return nil }
            return "plan: ok [\(planned.map(\.description).joined(separator: ", "))]; route: \(kind): \(message)"
        case (.failure(let failure), .failed(let kind, _)):
            return failure.kind.rawValue == kind ? nil : "plan: \(failure.kind): \(failure.message); route: \(kind)"
        case (.failure(let failure), .routed(let executed)):
            return "plan: \(failure.kind): \(failure.message); route: ok [\(executed.joined(separator: ", "))]"
        case (_, .nothing):
            return nil
        }
    }

    /// The findings of one action from `state`, from its two runs and (for a push of one screen)
    /// where `back` led from it; `index` is the state's.
    static func findings(
        action: ExploreAction, state: ExploreState, index: Int, first: ExploreOutcome, second: ExploreOutcome,
        backLanding: ExploreState?
    ) -> [ExploreFinding] {
        var found: [ExploreFinding] = []
        func add(_ kind: ExploreFinding.Kind, _ evidence: String, node: NodeID? = nil, keys: [String]? = nil) {
            var finding = ExploreFinding(kind: kind, state: index, path: state.pathText, action: action, evidence: evidence, node: node)
            finding.foldKeys = keys ?? [action.description]
            found.append(finding)
        }
        if let raised = first.failures.first(where: isRaised) {
            add(.handlerError, raised.description, node: raised.instruction?.handlingNode.id, keys: [raised.message])
        }
        if let loop = first.failures.first(where: isUnsettledRedirectChain) {
            add(.redirectLoop, loop.description, keys: [loop.redirectLoop.map(cycleKey) ?? loop.message])
        }
        if let plan = first.plan, let disagreement = planDisagreement(plan, first.result) {
            add(.planMismatch, disagreement)
        }
        if case .failed(let kind, _) = first.result, let after = first.after, after.tree != state.tree {
            add(.noRollback, "\(first.result); the tree is at \(after.pathText), not back at \(state.pathText)",
                keys: [action.description, "\(kind) \(state.pathText) -> \(after.pathText)"])
        }
        if first.signature != second.signature {
            add(.nondeterminism, "first: \(first.result) -> \(first.after?.pathText ?? "?"); "
                + "then: \(second.result) -> \(second.after?.pathText ?? "?")"
                + (first.after?.pathText == second.after?.pathText && first.result.shape == second.result.shape
                    ? " (the snapshots differ)" : ""))
        }
        if let landing = backLanding, landing.path != state.path {
            add(.backMismatch, "\(action) showed \(first.after?.pathText ?? "?"); back then led to \(landing.pathText), not \(state.pathText)")
        }
        return found
    }

    /// Whether back from `after` should return to `before`: the action showed one more screen on
    /// top of where the user was, or (other than by back itself) switched a tab bar that keeps its
    /// stacks and goes back through its history to another tab's root, from a path without a
    /// node shown anywhere on top (a tab switch closes those); and the app does not say that back
    /// goes elsewhere from the screen shown, nor declares it a floor.
    static func backReturns(
        from before: ExploreState, to after: ExploreState, by action: ExploreAction, in graph: NavigationGraph, exempt: Set<NodeID>
    ) -> Bool {
        // Back never leaves a floor: a screen that is one is not expected to be left by it.
        guard let top = after.path.last, !exempt.contains(top.id), graph[top.id]?.isFloor != true else { return false }
        if after.path.count == before.path.count + 1, Array(after.path.dropLast()) == before.path { return true }
        // A tab tap: the same path up to a switch, then another of its children, at that child's root.
        guard action != .back, after.path.count >= 2, !before.path.contains(where: { graph[$0.id]?.isAnywhere == true })
        else { return false }
        let switchIndex = after.path.count - 2
        guard let switchNode = graph[after.path[switchIndex].id], switchNode.kind == .switch,
              switchNode.back.keepsHistory, switchNode.keepsStacks,
              Array(before.path.prefix(switchIndex + 1)) == Array(after.path.prefix(switchIndex + 1)),
              before.path.count > switchIndex + 1, before.path[switchIndex + 1].id != top.id else { return false }
        return true
    }
}
