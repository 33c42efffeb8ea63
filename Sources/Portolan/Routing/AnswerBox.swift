import Synchronization

/// Carries an answer (a decision, a permission) out of the task that computed it to the router's
/// thread, which waits for that task.
final class AnswerBox<Value: Sendable>: Sendable {
    private let answer = Mutex<Value?>(nil)

    func set(_ value: Value) {
        answer.withLock { $0 = value }
    }

    var value: Value? {
        answer.withLock { $0 }
    }
}
