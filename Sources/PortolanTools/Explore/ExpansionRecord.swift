import Portolan

/// What one state's actions did, as breadth-first search takes it in and a shard's file keeps it
/// (`ExploreShardFile`): each action's ending and the state it led to, by fingerprint and path, and
/// what the checks found. The edges follow the catalog's actions of the state in order, so that a
/// file names an action by its place among them.
struct ExpansionRecord: Sendable, Equatable {
    /// How an action ended, as the report counts it.
    enum Ending: String, Sendable {
        case ok, failed, nothing

        init(_ result: ExploreOutcome.Result) {
            switch result {
            case .routed: self = .ok
            case .failed: self = .failed
            case .nothing: self = .nothing
            }
        }
    }

    struct Target: Sendable, Equatable {
        var fingerprint: UInt64
        var path: [Entry]
    }

    struct Edge: Sendable, Equatable {
        var action: ExploreAction
        /// The state the action left; nil when no snapshot could be taken.
        var target: Target?
        var ending: Ending
    }

    /// The state's index in the search.
    var index: Int
    var edges: [Edge] = []
    var findings: [ExploreFinding] = []
    /// Why the state was not expanded: it could not be restored.
    var notExpanded: String?
    /// The time limit stopped it before its actions were all run.
    var cutByTime = false
    /// Whether each action was run twice, to see that it is deterministic (`ExploreOptions.recheck`).
    var rechecked = false

    /// Whether every action of the state was run.
    var isWhole: Bool { notExpanded == nil && !cutByTime }
}
