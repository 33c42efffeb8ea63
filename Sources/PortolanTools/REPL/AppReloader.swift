import Portolan
import PortolanLua

/// `:reload` and `--watch`: the app script run again, its required modules read afresh, under the
/// app-loading limits; then the files it now reads are watched.
final class AppReloader {
    private let host: PortolanHost
    private let printer: ReplPrinter
    private let tap: RouterEventTap
    private let recorder: ReplRecorder
    private var watched = WatchedFiles()

    init(host: PortolanHost, printer: ReplPrinter, tap: RouterEventTap, recorder: ReplRecorder) {
        self.host = host
        self.printer = printer
        self.tap = tap
        self.recorder = recorder
    }

    /// Runs the app script again (the demo's source for the demo); `reason` names the file that
    /// changed (for `--watch`).
    nonisolated(nonsending) func reload(reason: String?) async {
        let header = reason.map { "\($0) changed: " } ?? ""
        do {
            let host = self.host, budget = AppLoadLimits.scriptInstructionBudget
            let reloaded = try await AppLoadLimits.run(host) { () async throws(HostError) in
                if await host.appFile != nil {
                    return try await host.reload(instructionBudget: budget)
                }
                return try await host.reload(source: DemoApp.source, chunkName: DemoApp.chunkName, instructionBudget: budget)
            }
            let left = reloaded.left
            printer.say(header + "reloaded" + (left.isEmpty ? "" : "; what no longer exists was left:"), .note)
            for instruction in left { printer.say("  \(instruction)", .instruction) }
            // Their guards may refuse what the session shows (the app's state changed with them).
            if case .success(let executed) = reloaded.refresh, executed.isEmpty {} else {
                printer.say("the guards of the new rules, asked again about the active path:", .note)
                printer.show(reloaded.refresh)
            }
            recorder.noteReload()
            printer.showActivePath(of: await host.router)
        } catch {
            printer.say("error: " + header + error.message, .error)
        }
        await noteFiles()
    }

    /// Notes how the watched files are now.
    nonisolated(nonsending) func noteFiles() async {
        watched.note(await host.appFiles)
    }

    /// A watched file that changed since it was last seen, if any.
    func changedFile() -> String? {
        watched.changedFile()
    }
}
