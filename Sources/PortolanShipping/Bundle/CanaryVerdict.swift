import PortolanLua

/// The canary's verdict for an install that waits for it: resolved once, from the host's thread.
final class CanaryVerdict: Sendable {
    private let state = Locked<(outcome: BundleInstallOutcome?, waiter: CheckedContinuation<BundleInstallOutcome, Never>?)>(
        (outcome: nil, waiter: nil))

    func resolve(_ outcome: BundleInstallOutcome) {
        let waiter = state.withLock { state -> CheckedContinuation<BundleInstallOutcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    func value() async -> BundleInstallOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> BundleInstallOutcome? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
