import Portolan
import PortolanLua

/// The limits every command loads an app under (`graph`, `check`, `test`, the REPL's start and
/// `:reload`): the host's memory cap, an instruction budget for the script's main flow, and a time
/// limit after which the script is interrupted, so that an app that loops or waits forever ends
/// with an error wherever it is loaded. Ctrl-C interrupts it too where someone is there to press it.
public enum AppLoadLimits {
    /// Lua instructions an app's script may run between two routes while it loads.
    public static let scriptInstructionBudget = 100_000_000
    /// How long loading an app may take, waits included.
    public static let timeLimit: Duration = .seconds(10)

    /// A host configuration for a command that only loads an app (`graph`, `check`): these limits
    /// for every script, and the handler time limit every host has by default.
    public static var configuration: HostConfiguration {
        HostConfiguration(scriptInstructionBudget: scriptInstructionBudget)
    }

    /// Loads the app file (or `source` as that file) into `host` within these limits.
    public static func loadApp(
        _ host: PortolanHost, file: String, source: String? = nil, within limit: Duration = timeLimit
    ) async throws(HostError) {
        try await run(host, within: limit) { () async throws(HostError) in
            if let source {
                try await host.loadApp(.fileWithText(file, text: source), instructionBudget: scriptInstructionBudget)
            } else {
                try await host.loadApp(.file(file), instructionBudget: scriptInstructionBudget)
            }
        }
    }

    /// Runs `body`, interrupting the host's script when it outlives `limit`; an interrupted one
    /// fails saying what happened.
    public static func run<T: Sendable>(
        _ host: PortolanHost, within limit: Duration = timeLimit,
        _ body: @escaping @Sendable () async throws(HostError) -> T
    ) async throws(HostError) -> T {
        let work = Task { () -> Result<T, HostError> in
            do throws(HostError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        // Set when the limit, not Ctrl-C, interrupted the script: the two are told apart in the error.
        let limitReached = Locked(false)
        let watchdog = Task {
            try await Task.sleep(for: limit)
            limitReached.withLock { $0 = true }
            host.interruption.request()
            work.cancel()
        }
        let result = await work.value
        watchdog.cancel()
        switch result {
        case .success(let value):
            return value
        case .failure(let error) where error.isInterrupted && limitReached.value:
            // Said where the script was cut, as the instruction budget's error is: which of the two
            // ends an endless loop first depends on how busy the machine is.
            // Still interrupted: a caller tells the time limit from what the script did (the gate
            // does not quarantine rules for a busy device).
            throw HostError(
                error.interruptedAt + "the script did not finish within \(limit) (an endless loop or a long wait?)", isInterrupted: true)
        case .failure(let error):
            throw error
        }
    }
}
