import Synchronization

/// Carries an interceptor's decision out of the task that runs it under a time limit.
final class DecisionBox: Sendable {
    private let decision = Mutex<InterceptionDecision?>(nil)

    func set(_ value: InterceptionDecision) {
        decision.withLock { $0 = value }
    }

    var value: InterceptionDecision? {
        decision.withLock { $0 }
    }
}
