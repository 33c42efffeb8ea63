import Portolan
import PortolanLua

/// `:reload` and `--watch`: the app script run again, its required modules read afresh.
extension ReplSession {
    /// Runs the app script again; `reason` names the file that changed (for `--watch`).
    func reload(reason: String?) async {
        let header = reason.map { "\($0) changed: " } ?? ""
        do {
            let host = self.host, budget = AppLoadLimits.scriptInstructionBudget
            let left = try await AppLoadLimits.run(host) { () async throws(HostError) in
                if await host.appFile != nil {
                    return try await host.reload(instructionBudget: budget)
                }
                return try await host.reload(source: DemoApp.source, chunkName: DemoApp.chunkName, instructionBudget: budget)
            }
            say(header + "reloaded" + (left.isEmpty ? "" : "; what no longer exists was left:"), .note)
            for instruction in left { say("  \(instruction)", .instruction) }
            await observeRouter()
            if recording != nil {
                recording?.append(.note("the app was reloaded here (the replay runs the rules as the app file has them)"))
                saveRecording()
            }
            await showActivePath()
        } catch {
            say("error: " + header + error.message, .error)
        }
        await noteFiles()
    }

    /// The files `--watch` watches: the app file, every file `portolan.load` ran and every module
    /// the app required.
    public var watchedFiles: [String] {
        get async { await host.appFiles }
    }

    /// Notes how the watched files are now.
    func noteFiles() async {
        stamps = [:]
        for file in await watchedFiles { stamps[file] = FileStamp(file) }
    }

    /// Reloads when a watched file changed since it was last seen (`portolan repl --watch`
    /// calls it every few hundred milliseconds); says so and what the reload did. Returns
    /// whether it reloaded.
    @discardableResult
    public func reloadIfChanged() async -> Bool {
        for (file, stamp) in stamps where FileStamp(file) != stamp {
            // Wait out an editor's write (truncate, then write) before reading the file.
            try? await Task.sleep(for: .milliseconds(50))
            await observeRouter()
            eventLog.start()
            await reload(reason: file)
            await notifyObservers(of: eventLog.stop())
            return true
        }
        return false
    }
}
