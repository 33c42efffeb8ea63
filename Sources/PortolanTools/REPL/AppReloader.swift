import Portolan
import PortolanLua
import PortolanShipping

/// `:reload` and `--watch`: the app script run again, its required modules read afresh, under the
/// app-loading limits; then the files it now reads are watched. When the app's directory is a
/// bundle's source for it, the edit goes through the gate first (`ReloadGate`), and one the gate
/// refuses never reaches the rules in service.
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
    /// changed (for `--watch`). The files are noted as they are before the gate and the reload read
    /// them, so an edit made meanwhile is seen by the next check.
    nonisolated(nonsending) func reload(reason: String?) async {
        watched.note(await watchedFiles())
        await gateThenReload(header: reason.map { "\($0) changed: " } ?? "")
        watched.keepNoting(await watchedFiles())
    }

    private nonisolated(nonsending) func gateThenReload(header: String) async {
        guard let passed = await passGate(header: header) else { return }
        do {
            let host = self.host, budget = AppLoadLimits.scriptInstructionBudget
            let reloaded = try await AppLoadLimits.run(host) { () async throws(HostError) in
                // The rules in service again: the app file, or the demo app's text.
                try await host.reload(instructionBudget: budget)
            }
            let left = reloaded.left
            printer.say(header + passed + "reloaded" + (left.isEmpty ? "" : "; what no longer exists was left:"), .note)
            for instruction in left { printer.say("  \(instruction)", .instruction) }
            if !reloaded.entered.isEmpty {
                printer.say("what the new rules bring onto the active path was entered:", .note)
                for instruction in reloaded.entered { printer.say("  \(instruction)", .instruction) }
            }
            // What carrying the tree changed anywhere, kept stacks included, as a restore says it.
            if !reloaded.changes.isEmpty {
                printer.say("carried to the new rules:", .note)
                for change in reloaded.changes { printer.say("  \(change)", .note) }
            }
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
    }

    /// The gate, when the app declares one (`ReloadGate`): nil when it refuses the edit (said, with
    /// the rules in service left as they are), else what to say of it before `reloaded`.
    private nonisolated(nonsending) func passGate(header: String) async -> String? {
        guard let appFile = await host.appFile else { return "" }
        let refusal: String
        switch await ReloadGate.check(appFile: appFile, functions: await host.registeredFunctions) {
        case .notGated: return ""
        case .rejected(let reason): refusal = reason
        case .passed(let manifest):
            // The rules in service must be the ones the gate passed: a file saved while it ran is
            // for the next check (`--watch` runs it at once; `:reload` when asked again).
            guard let file = watched.changedFile() else { return "passed the gate (\(ReloadGate.stagesRun(for: manifest))); " }
            refusal = "\(file) changed while the gate checked the rules"
        }
        printer.say("error: " + header + refusal, .error)
        printer.say("the rules in service are unchanged", .note)
        return nil
    }

    /// The files `--watch` watches: the app's (`host.appFiles`), then, when the reload is gated,
    /// `bundle.json` and its scenario files.
    nonisolated(nonsending) func watchedFiles() async -> [String] {
        let files = await host.appFiles
        guard let appFile = await host.appFile else { return files }
        return files + ReloadGate.declaredFiles(appFile: appFile).filter { !files.contains($0) }
    }

    /// The `bundle.json` whose gate reloads go through, nil when they are not gated.
    nonisolated(nonsending) func gateManifest() async -> String? {
        guard let appFile = await host.appFile else { return nil }
        return ReloadGate.declaredFiles(appFile: appFile).first
    }

    /// Notes how the watched files are now.
    nonisolated(nonsending) func noteFiles() async {
        watched.note(await watchedFiles())
    }

    /// A watched file that changed since it was last seen, if any.
    func changedFile() -> String? {
        watched.changedFile()
    }
}
