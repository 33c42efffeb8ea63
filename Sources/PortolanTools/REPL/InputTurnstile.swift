/// Lets the session's inputs through one at a time, in the order they came: a line typed, a
/// `--watch` reload, the end of input. An actor alone would not: it is reentrant, so while a line
/// awaits its host (between resolving a URL and routing it) another call on the session would run.
/// Here it waits at the turnstile until the line is done (docs/concurrency.md, rule 8).
///
/// Not `Sendable`: it lives in the session and is used only on the session's actor, whose
/// isolation its `enter` keeps (`nonisolated(nonsending)`).
final class InputTurnstile {
    private var isBusy = false
    /// The inputs that came while another went through, first come first.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How many inputs wait for the one going through.
    var waitingCount: Int { waiting.count }

    /// Returns once the input may go through: at once when none is, else when those before it
    /// have left. Every `enter` is followed by one `leave`.
    nonisolated(nonsending) func enter() async {
        guard isBusy else {
            isBusy = true
            return
        }
        // `leave` hands the turnstile over without freeing it, so that no later caller slips in.
        await withCheckedContinuation { waiting.append($0) }
    }

    /// The input went through: lets the next one in.
    func leave() {
        if waiting.isEmpty {
            isBusy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
