import Portolan
import PortolanLua
import PortolanShipping

/// One state as a batch expanded it: the record of what its actions did, and the whole state
/// each action led to, which the next level restores when the state is new.
struct ExpandedState: Sendable {
    var record: ExpansionRecord
    /// One per edge of the record: nil where no snapshot could be taken.
    var wholeTargets: [ExploreState?] = []

    init(index: Int, notExpanded: String? = nil, cutByTime: Bool = false) {
        record = ExpansionRecord(index: index, notExpanded: notExpanded, cutByTime: cutByTime)
    }
}

/// A batch of states expanded in one fresh host (the app loaded anew, `math.random` seeded), in
/// order. The batches are fixed by the exploration, not by `--jobs`, so that what a host ran
/// before each state is the same however many run at once: the report is the same byte for byte.
struct ExploreBatch: Sendable {
    let app: String
    let catalog: ExploreCatalog
    let options: ExploreOptions
    /// The fingerprint of the start, which is no dead end whatever its actions do.
    let startFingerprint: UInt64
    let deadline: ContinuousClock.Instant

    func expand(_ states: [(index: Int, state: ExploreState)], depth: Int) async -> [ExpandedState] {
        // Past the time limit no host is started: what is left is only counted.
        guard ContinuousClock.now < deadline else { return states.map { ExpandedState(index: $0.index, cutByTime: true) } }
        let host: PortolanHost
        do {
            host = try await options.startHost(app: app)
        } catch {
            return states.map { ExpandedState(index: $0.index, notExpanded: "the app did not load: \(error.message)") }
        }
        let batch = self
        return await host.perform { host in
            var session: ExploreHostSession
            do {
                session = try ExploreHostSession(host: host, seed: batch.options.seed)
            } catch {
                return states.map { ExpandedState(index: $0.index, notExpanded: "cannot start: \(error)") }
            }
            return states.map { batch.expand($0.state, index: $0.index, depth: depth, session: &session, host: host) }
        }
    }

    private func expand(
        _ state: ExploreState, index: Int, depth: Int, session: inout ExploreHostSession, host: isolated PortolanHost
    ) -> ExpandedState {
        var expanded = ExpandedState(index: index)
        expanded.record.rechecked = options.rechecks(depth: depth, fingerprint: state.fingerprint)
        guard ContinuousClock.now < deadline else {
            expanded.record.cutByTime = true
            return expanded
        }
        if let loss = session.make(live: state, in: host) {
            expanded.record.notExpanded = loss.why
            expanded.record.findings.append(Self.snapshotLoss(state, index: index, loss))
            return expanded
        }
        var backResult = "?"
        for action in catalog.actions(at: state.path) {
            guard ContinuousClock.now < deadline else {
                expanded.record.cutByTime = true
                break
            }
            if let loss = session.make(live: state, in: host) {
                expanded.record.notExpanded = loss.why
                expanded.record.findings.append(Self.snapshotLoss(state, index: index, loss))
                break
            }
            let first = session.perform(action, in: host)
            var landing: ExploreState?
            if case .routed = first.result, let after = first.after,
               ExploreChecks.backReturns(from: state, to: after, by: action, in: catalog.graph, exempt: catalog.declaration.back) {
                _ = host.back()
                landing = ExploreHostSession.capture(host).state
                session.forget()
            }
            let second: ExploreOutcome
            if expanded.record.rechecked, session.make(live: state, in: host) == nil {
                second = session.perform(action, in: host)
            } else {
                second = first
            }
            expanded.record.findings += ExploreChecks.findings(
                action: action, state: state, index: index, first: first, second: second, backLanding: landing)
            if action == .back { backResult = first.result.description }
            expanded.record.edges.append(.init(
                action: action, target: first.after.map { .init(fingerprint: $0.fingerprint, path: $0.path) },
                ending: .init(first.result)))
            expanded.wholeTargets.append(first.after)
        }
        if index != 0, state.fingerprint != startFingerprint, expanded.record.isWhole {
            expanded.record.findings += deadEnd(state, index: index, edges: expanded.record.edges, back: backResult)
        }
        return expanded
    }

    /// A state the restore does not give back; states lost the same way (a guard that redirects
    /// every restore of them) are one fault.
    private static func snapshotLoss(_ state: ExploreState, index: Int, _ loss: ExploreHostSession.RestoreLoss) -> ExploreFinding {
        var finding = ExploreFinding(kind: .snapshotLoss, state: index, path: state.pathText, action: nil, evidence: loss.why)
        finding.foldKeys = [loss.cause]
        return finding
    }

    /// A dead end: back and every other action a user has leave the state as it is.
    private func deadEnd(_ state: ExploreState, index: Int, edges: [ExpansionRecord.Edge], back: String) -> [ExploreFinding] {
        let userEdges = edges.filter(\.action.isUserAction)
        guard !userEdges.isEmpty, userEdges.allSatisfy({ $0.target == nil || $0.target?.fingerprint == state.fingerprint }) else { return [] }
        return [ExploreFinding(
            kind: .deadEnd, state: index, path: state.pathText, action: .back,
            evidence: "back: \(back); none of the \(userEdges.count) actions leaves \(state.pathText)")]
    }
}
