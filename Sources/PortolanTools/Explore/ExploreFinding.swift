import Portolan

/// A problem the explorer found (docs/explore.md): its kind, the state it was found in, the
/// action that showed it, and the evidence.
public struct ExploreFinding: Sendable, Hashable {
    public enum Kind: Int, Sendable, CaseIterable, Comparable {
        case handlerError = 1
        case redirectLoop
        case deadEnd
        case unreachable
        case backMismatch
        case planMismatch
        case noRollback
        case nondeterminism
        case snapshotLoss

        /// The name `--fail-on` and the reports use: `handler-error`.
        public var name: String {
            switch self {
            case .handlerError: "handler-error"
            case .redirectLoop: "redirect-loop"
            case .deadEnd: "dead-end"
            case .unreachable: "unreachable"
            case .backMismatch: "back-mismatch"
            case .planMismatch: "plan-mismatch"
            case .noRollback: "no-rollback"
            case .nondeterminism: "nondeterminism"
            case .snapshotLoss: "snapshot-loss"
            }
        }

        /// What it means, for the text report's legend and `--help`.
        public var meaning: String {
            switch self {
            case .handlerError: "a handler or guard raises, times out or exceeds its budget"
            case .redirectLoop: "a redirect or guard loop"
            case .deadEnd: "a state other than the start that back and every action leave as it is"
            case .unreachable: "a declared screen no explored state shows"
            case .backMismatch: "back after reaching a screen does not return to where the user came from"
            case .planMismatch: "plan disagrees with route"
            case .noRollback: "a failed route does not roll the tree back"
            case .nondeterminism: "the same action from the same state gives different outcomes"
            case .snapshotLoss: "a state that does not survive snapshot -> restore"
            }
        }

        /// `handler-error` or `1`.
        public init?(name: String) {
            if let number = Int(name), let kind = Kind(rawValue: number) { self = kind; return }
            guard let kind = Kind.allCases.first(where: { $0.name == name }) else { return nil }
            self = kind
        }

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    /// The state's index in the exploration (0: the start), and its active path.
    public var state: Int
    public var path: String
    /// The action that showed it; nil for an unreachable screen, which no one action shows.
    public var action: ExploreAction?
    /// What was seen: the failure, the two outcomes, the path back led to.
    public var evidence: String
    /// For an unreachable screen, the node; else the node the failure names, when one does.
    public var node: NodeID?
    /// What tells this fault from others when the same one shows again elsewhere: a finding whose
    /// keys meet one already reported is counted as a repeat of it (`ExploreReporting`).
    var foldKeys: [String] = []

    public init(kind: Kind, state: Int, path: String, action: ExploreAction?, evidence: String, node: NodeID? = nil) {
        self.kind = kind
        self.state = state
        self.path = path
        self.action = action
        self.evidence = evidence
        self.node = node
    }

    /// `dead-end at root > a > trap (back): …`
    public var summary: String {
        "\(kind.name) at \(path)" + (action.map { " (\($0))" } ?? "") + ": " + evidence
    }
}
