/// How far a running exploration has gone, as `Explorer.run(progress:)` reports it after each
/// batch of states (TLC and Spin print the like while they work): the depth being expanded, the
/// states kept and still queued, and the actions run.
public struct ExploreProgress: Sendable, Equatable {
    /// The depth of the states being expanded (0: the start).
    public var depth: Int
    public var statesKept: Int
    /// States kept and not expanded yet: the rest of this level and what the next holds so far.
    public var queued: Int
    public var actions: Int
    public var elapsed: Duration

    /// `depth 3: 1234 states kept, 567 queued, 8901 actions in 4.2 s (2119 actions/s, 294 states/s)`
    public var text: String {
        let (seconds, attoseconds) = elapsed.components
        let time = Double(seconds) + Double(attoseconds) / 1e18
        let rate = { (count: Int) in time > 0 ? "\(Int((Double(count) / time).rounded()))" : "?" }
        return "depth \(depth): \(statesKept) states kept, \(queued) queued, \(actions) actions in \(ExploreTextReport.tenths(time)) s "
            + "(\(rate(actions)) actions/s, \(rate(statesKept)) states/s)"
    }
}
