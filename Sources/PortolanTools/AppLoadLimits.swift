import PortolanLua

/// The limits every command loads an app under when no one is there to press Ctrl-C (`graph`,
/// `check`): an instruction budget, and a time limit after which the script is interrupted. The
/// REPL loads under Ctrl-C instead, and `test` under each scenario's time limit.
public enum AppLoadLimits {
    /// Lua instructions an app's script may run between two routes.
    public static let scriptInstructionBudget = 100_000_000
    /// How long loading an app may take, waits included.
    public static let timeLimit: Duration = .seconds(10)

    /// A host configuration with these limits.
    public static var configuration: HostConfiguration {
        HostConfiguration(handlerTimeout: .seconds(2), scriptInstructionBudget: scriptInstructionBudget)
    }

    /// Runs `body`, interrupting the host's script when it outlives `limit`; returns its error
    /// (an interrupted one says what happened).
    public static func run(
        _ host: PortolanHost, within limit: Duration = timeLimit,
        _ body: @escaping @Sendable () async throws(HostError) -> Void
    ) async -> HostError? {
        let work = Task { () -> HostError? in
            do throws(HostError) {
                try await body()
                return nil
            } catch {
                return error
            }
        }
        let watchdog = Task {
            try await Task.sleep(for: limit)
            host.interruption.request()
            work.cancel()
        }
        let result = await work.value
        watchdog.cancel()
        if let result, result.isInterrupted {
            return HostError("the script did not finish within \(limit) (an endless loop or a long wait?)")
        }
        return result
    }
}
