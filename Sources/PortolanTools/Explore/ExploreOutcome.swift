import Portolan

/// What one action did from one state: its own result, every route failure it caused (queued
/// routes included), and the state it left.
struct ExploreOutcome: Sendable {
    enum Result: Sendable, Equatable, CustomStringConvertible {
        /// It routed, with these instructions.
        case routed([String])
        /// It failed, with the failure's kind and message.
        case failed(kind: String, message: String)
        /// There was nothing to do (`resume` with nothing pending, a state change).
        case nothing

        var description: String {
            switch self {
            case .routed(let instructions): instructions.isEmpty ? "ok (nothing to do)" : "ok: " + instructions.joined(separator: ", ")
            case .failed(let kind, let message): "failed \(kind): \(message)"
            case .nothing: "nothing"
            }
        }

        /// `ok`, `failed denied`: what two runs of one action must agree on, without messages.
        var shape: String {
            switch self {
            case .routed(let instructions): "ok " + instructions.joined(separator: ", ")
            case .failed(let kind, _): "failed \(kind)"
            case .nothing: "nothing"
            }
        }

        init(_ result: RouteResult) {
            switch result {
            case .success(let instructions): self = .routed(instructions.map(\.description))
            case .failure(let failure): self = .failed(kind: failure.kind.rawValue, message: failure.description)
            }
        }
    }

    var result: Result
    /// Every route that failed while the action ran, its own and those it queued.
    var failures: [RouteFailure]
    /// The state it left; nil when no snapshot could be taken (then `afterError` says why).
    var after: ExploreState?
    var afterError: String?
    /// What `plan` said first, for an action that has a destination to plan.
    var plan: RoutePlan?

    /// What two runs of the action must agree on: its result without messages, and the state it left.
    var signature: String {
        result.shape + " -> " + (after.map { String($0.fingerprint, radix: 16) } ?? afterError ?? "?")
    }
}
