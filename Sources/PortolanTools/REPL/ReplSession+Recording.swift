import Portolan
import PortolanLua

/// `:record FILE`: every route request and the Lua typed between them, written as a scenario file
/// after each (``ReplRecording``).
extension ReplSession {
    func record(_ argument: String) async {
        if argument.isEmpty || argument == "off" {
            guard recording != nil else {
                say(argument.isEmpty
                    ? "error: :record needs a file, as in :record session.lua (:record off stops)"
                    : "(not recording)", argument.isEmpty ? .error : .note)
                return
            }
            stopRecording()
            return
        }
        stopRecording()
        // The routes replay from where the session is now: the file gets there first.
        let tree = await host.router?.tree
        let fresh = ReplRecording(
            path: argument, app: appArgument ?? DemoApp.chunkName, appName: appName,
            start: .init(lua: setupLua, routes: tree?.routesFromFreshTree ?? [], activePath: tree?.activePath.map(\.id) ?? []))
        do {
            try fresh.write()
        } catch {
            say("error: \(error.message)", .error)
            return
        }
        recording = fresh
        say("recording to \(argument) (routes, and the Lua typed between them); :record off stops", .note)
        if !fresh.start.routes.isEmpty {
            say("the file first routes to where the session stands: \(fresh.start.activePath.joined(separator: " > "))", .note)
        }
    }

    /// Ends the recording, if any, saying how much it holds (its file is already written).
    func stopRecording() {
        guard let recording else { return }
        say("recorded \(recording.routeCount) route\(recording.routeCount == 1 ? "" : "s") to \(recording.path)", .note)
        self.recording = nil
    }

    /// Remembers a route request: `call` is the Lua call that asks for it.
    func recordRoute(call: String, result: RouteResult) async {
        guard recording != nil else { return }
        let outcome: ReplRecording.Outcome
        switch result {
        case .success(let instructions): outcome = .instructions(instructions.map(\.description))
        case .failure(let failure): outcome = .failed(kind: failure.kind.rawValue)
        }
        recording?.append(.route(call: call, result: outcome, activePath: await activeIDs()))
        saveRecording()
    }

    func saveRecording() {
        guard let recording else { return }
        do {
            try recording.write()
        } catch {
            say("error: \(error.message); recording stopped", .error)
            self.recording = nil
        }
    }

    func activeIDs() async -> [String] {
        await host.router?.activePath.map(\.id) ?? []
    }
}
