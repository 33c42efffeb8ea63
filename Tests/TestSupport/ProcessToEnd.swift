import Foundation

extension Process {
    /// Starts the process and returns once it has ended, without holding a thread of the
    /// cooperative pool while it runs. `started` is called once it runs (to set a watchdog).
    public func runToEnd(started: (Process) -> Void = { _ in }) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            terminationHandler = { _ in continuation.resume() }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            started(self)
        }
    }
}
