import Portolan

/// What an exploration's actions did, the figures a model checker prints at its end (TLC and Spin
/// print the like): for each kind of action how often it was tried, how it ended and how many new
/// states it found, and the spread of out-degrees, the number of other states an expanded state's
/// actions lead to. A function of the run alone, so the same exploration prints the same figures.
public struct ExploreStatistics: Sendable, Equatable {
    public struct Tally: Sendable, Equatable {
        public var tried = 0
        public var routed = 0
        public var failed = 0
        /// Actions with nothing to do (a `resume` with nothing pending).
        public var nothing = 0
        /// Actions that led to a state met for the first time.
        public var newStates = 0
    }

    public var byKind: [ExploreAction.Kind: Tally] = [:]
    /// How many expanded states have each out-degree.
    public var outDegrees: [Int: Int] = [:]

    mutating func count(_ action: ExploreAction, ending: ExpansionRecord.Ending, isNew: Bool) {
        var tally = byKind[action.kind] ?? Tally()
        tally.tried += 1
        switch ending {
        case .ok: tally.routed += 1
        case .failed: tally.failed += 1
        case .nothing: tally.nothing += 1
        }
        if isNew { tally.newStates += 1 }
        byKind[action.kind] = tally
    }

    mutating func countOutDegree(_ degree: Int) { outDegrees[degree, default: 0] += 1 }

    /// The out-degree at `fraction` of the expanded states (0.5: the median), nil when none was.
    public func outDegree(atFraction fraction: Double) -> Int? {
        let total = outDegrees.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for degree in outDegrees.keys.sorted() {
            seen += outDegrees[degree] ?? 0
            if seen >= rank { return degree }
        }
        return outDegrees.keys.max()
    }

    public var meanOutDegree: Double? {
        let total = outDegrees.values.reduce(0, +)
        guard total > 0 else { return nil }
        return Double(outDegrees.reduce(0) { $0 + $1.key * $1.value }) / Double(total)
    }

    /// `route 120: 98 ok, 22 failed; 40 new states`, one per kind tried, in `Kind`'s order.
    var kindLines: [String] {
        ExploreAction.Kind.allCases.compactMap { kind in
            guard let tally = byKind[kind] else { return nil }
            let ends = [(tally.routed, "ok"), (tally.failed, "failed"), (tally.nothing, "nothing to do")]
                .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            return "\(kind.rawValue) \(tally.tried): \(ends); \(tally.newStates) new state\(tally.newStates == 1 ? "" : "s")"
        }
    }

    /// `min 1, median 4, 95th percentile 9, max 12, mean 4.6`; nil when no state was expanded.
    var outDegreeText: String? {
        guard let low = outDegree(atFraction: 0), let median = outDegree(atFraction: 0.5),
              let high = outDegree(atFraction: 0.95), let top = outDegree(atFraction: 1), let mean = meanOutDegree else { return nil }
        return "min \(low), median \(median), 95th percentile \(high), max \(top), mean \(ExploreTextReport.tenths(mean))"
    }

    var json: JSONValue {
        var kinds: [String: JSONValue] = [:]
        for (kind, tally) in byKind {
            kinds[kind.rawValue] = .object([
                "tried": .integer(Int64(tally.tried)), "ok": .integer(Int64(tally.routed)),
                "failed": .integer(Int64(tally.failed)), "nothing": .integer(Int64(tally.nothing)),
                "new_states": .integer(Int64(tally.newStates)),
            ])
        }
        let degrees = outDegrees.keys.sorted().map { JSONValue.array([.integer(Int64($0)), .integer(Int64(outDegrees[$0] ?? 0))]) }
        return .object(["actions_by_kind": .object(kinds), "out_degrees": .array(degrees)])
    }
}
