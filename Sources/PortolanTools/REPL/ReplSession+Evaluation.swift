import Lua
import PortolanLua

/// Lua typed at the prompt, evaluated as lua.c evaluates it: an expression's results are printed
/// (tab-separated), a statement is run, a chunk that ends in the middle of a statement (`<eof>`)
/// waits for the next line, and an error is printed as `error: stdin:1: ...` while the session
/// goes on.
extension ReplSession {
    func evaluate(_ line: String) async -> Step {
        pending.append(line)
        let chunk = pending.joined(separator: "\n")
        var raised = false
        var interrupted = false
        do {
            // `return` first, so that an expression's results come back (the host's evaluate).
            let results = try await host.evaluate(chunk, chunkName: "=stdin")
            pending = []
            if !results.isEmpty {
                write(results.joined(separator: "\t"))
            }
        } catch {
            if error.isIncompleteInput {
                pendingError = error.message
                return .continuing
            }
            pending = []
            raised = true
            interrupted = error.isInterrupted
            say("error: \(error.message)", .error)
        }
        let routes = RouteReport.reports(from: eventLog.snapshot())
        // A chunk stopped by Ctrl-C would not stop in the replay: it is left out.
        if recording != nil, !interrupted {
            await recordLua(chunk, raised: raised, routed: !routes.isEmpty)
        } else if recording == nil, !raised, routes.isEmpty, await host.compiles(chunk, chunkName: "=stdin") {
            if setupLua.count == Self.setupLimit { setupLua.removeFirst() }
            setupLua.append(chunk)
        }
        // A chunk that declared an app (or loaded one) has a new router: watch it from now on.
        await observeRouter()
        return .ready
    }

    /// Remembers a Lua chunk for `:record`: replayed verbatim, unless it only reads a name.
    private func recordLua(_ chunk: String, raised: Bool, routed: Bool) async {
        let trimmed = chunk.replTrimmed()
        let isPlainName = trimmed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        if isPlainName && !routed { return }
        let statement = await host.compiles(chunk, chunkName: "=stdin")
        recording?.append(.lua(chunk, statement: statement, raised: raised, routed: routed, activePath: await activeIDs()))
        saveRecording()
    }
}
