/// A step that took longer than the inspector gives it: a client that sends its request too
/// slowly, or reads its page or its states too slowly.
struct InspectorDeadlineError: Error {}

/// Runs `body`, cancelling it when `seconds` pass first (then throws `InspectorDeadlineError`).
/// The socket operations of FlyingSocks end at once when their task is cancelled, so a client that
/// stalls holds nothing past its deadline.
func withDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw InspectorDeadlineError() }
        return value
    }
}
