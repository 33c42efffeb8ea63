import Lua
import PortolanLua
import PortolanShipping

/// Lua typed at the prompt, evaluated as lua.c evaluates it: an expression's results are printed
/// (tab-separated), a statement is run, a chunk that ends in the middle of a statement (`<eof>`)
/// waits for the next line (``ChunkAccumulator``), and an error is printed as
/// `error: stdin:1: ...` while the session goes on.
final class ChunkEvaluator {
    private let host: PortolanHost
    private let printer: ReplPrinter
    private let tap: RouterEventTap
    private let recorder: ReplRecorder
    private var chunk = ChunkAccumulator()

    init(host: PortolanHost, printer: ReplPrinter, tap: RouterEventTap, recorder: ReplRecorder) {
        self.host = host
        self.printer = printer
        self.tap = tap
        self.recorder = recorder
    }

    /// Whether an incomplete chunk waits for more lines.
    var isContinuing: Bool { !chunk.isEmpty }

    /// Adds a line to the chunk and runs the chunk, unless it is still incomplete.
    nonisolated(nonsending) func evaluate(_ line: String) async -> ReplSession.Step {
        let source = chunk.adding(line)
        var raised = false
        var interrupted = false
        do {
            // `return` first, so that an expression's results come back (the host's evaluate).
            let results = try await host.evaluate(source, chunkName: "=stdin")
            chunk.clear()
            if !results.isEmpty {
                printer.write(results.joined(separator: "\t"))
            }
        } catch {
            if error.isIncompleteInput {
                chunk.keepIncomplete(because: error.message)
                return .continuing
            }
            chunk.clear()
            raised = true
            interrupted = error.isInterrupted
            printer.say("error: \(error.message)", .error)
        }
        await recorder.noteLua(source, raised: raised, interrupted: interrupted, routes: RouteReport.reports(from: tap.log.snapshot()))
        return .ready
    }

    /// Drops an incomplete chunk (Ctrl-C at a prompt).
    func cancel() {
        chunk.clear()
    }

    /// At the end of input: false when it ended inside a chunk, which is reported as the syntax
    /// error it is rather than dropped in silence.
    func finish() -> Bool {
        guard let reason = chunk.abandon() else { return true }
        printer.say("error: \(reason) (the input ended before the chunk did)", .error)
        return false
    }
}
