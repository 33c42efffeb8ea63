import Portolan
import PortolanLua
import PortolanShipping

/// `:record FILE`: every route request and the Lua typed between them, written as a scenario file
/// after each (``ReplRecording``); and, until a recording starts, the Lua statements it will replay
/// first.
final class ReplRecorder {
    private let host: PortolanHost
    private let printer: ReplPrinter
    /// The app as `portolan test --app` takes it: the file given at the start, or the demo's.
    private let app: String
    /// How the file's header names the app.
    private let appName: String
    /// The scenario being written, if any.
    private var recording: ReplRecording?
    /// Lua statements typed before any recording that ran cleanly without routing (`login()`,
    /// `logged_in = true`): a recording started later replays them first, since its routes may
    /// depend on them. The last `setupLimit` are kept.
    private var setupLua: [String] = []
    static let setupLimit = 500

    init(host: PortolanHost, printer: ReplPrinter, app: String, appName: String) {
        self.host = host
        self.printer = printer
        self.app = app
        self.appName = appName
    }

    /// `:record FILE`, `:record off`, `:record`.
    nonisolated(nonsending) func record(_ argument: String) async {
        if argument.isEmpty || argument == "off" {
            guard recording != nil else {
                printer.say(argument.isEmpty
                    ? "error: :record needs a file, as in :record session.lua (:record off stops)"
                    : "(not recording)", argument.isEmpty ? .error : .note)
                return
            }
            stop()
            return
        }
        stop()
        // The routes replay from where the session is now: the file gets there first.
        let tree = await host.router?.tree
        let fresh = ReplRecording(
            path: argument, app: app, appName: appName,
            start: .init(
                lua: setupLua, appNames: await appNames(), routes: tree?.routesFromFreshTree ?? [],
                activePath: tree?.activePath.map(\.id) ?? []))
        do {
            try fresh.write()
        } catch {
            printer.say("error: \(error.message)", .error)
            return
        }
        recording = fresh
        printer.say("recording to \(argument) (routes, and the Lua typed between them); :record off stops", .note)
        if !fresh.start.routes.isEmpty {
            printer.say("the file first routes to where the session stands: \(fresh.start.activePath.joined(separator: " > "))", .note)
        }
    }

    /// Ends the recording, if any, saying how much it holds (its file is already written).
    func stop() {
        guard let recording else { return }
        printer.say("recorded \(recording.routeCount) route\(recording.routeCount == 1 ? "" : "s") to \(recording.path)", .note)
        self.recording = nil
    }

    /// Remembers a route request: `call` is the Lua call that asks for it.
    nonisolated(nonsending) func recordRoute(call: String, result: RouteResult) async {
        guard recording != nil else { return }
        recording?.append(.route(call: call, result: Self.outcome(of: result), activePath: await activeIDs()))
        save()
    }

    private static func outcome(of result: RouteResult) -> ReplRecording.Outcome {
        switch result {
        case .success(let instructions): return .instructions(instructions.map(\.description))
        case .failure(let failure): return .failed(kind: failure.kind.rawValue)
        }
    }

    /// Remembers a Lua chunk typed at the prompt that ran `routes`: while recording, to replay it
    /// (unless it only looked at something, or Ctrl-C stopped it, which would not stop in the
    /// replay), a lone `portolan.route …` expression as a route whose result is expected; before,
    /// as setup when it is a statement that ran cleanly without routing and did more than look.
    nonisolated(nonsending) func noteLua(_ chunk: String, raised: Bool, interrupted: Bool, routes: [RouteReport]) async {
        let reading = RecordedLua(chunk)
        let routed = !routes.isEmpty
        if recording != nil {
            guard !interrupted, routed || !reading.isLook else { return }
            if !raised, routes.count == 1, let route = routes.first, reading.startsWithRouteCall,
                await host.compiles("return " + chunk, chunkName: "=stdin")
            {
                let result: RouteResult = route.failure.map { .failure($0) } ?? .success(route.instructions)
                recording?.append(.route(call: chunk.replTrimmed(), result: Self.outcome(of: result), activePath: await activeIDs()))
                save()
                return
            }
            let statement = await host.compiles(chunk, chunkName: "=stdin")
            recording?.append(.lua(chunk, statement: statement, raised: raised, routed: routed, activePath: await activeIDs()))
            save()
        } else if !raised, !routed, !reading.isLook, await host.compiles(chunk, chunkName: "=stdin") {
            if setupLua.count == Self.setupLimit { setupLua.removeFirst() }
            setupLua.append(chunk)
        }
    }

    /// Notes a reload in the file: the replay runs the rules as the app file has them.
    func noteReload() {
        guard recording != nil else { return }
        recording?.append(.note("the app was reloaded here (the replay runs the rules as the app file has them)"))
        save()
    }

    private func save() {
        guard let recording else { return }
        do {
            try recording.write()
        } catch {
            printer.say("error: \(error.message); recording stopped", .error)
            self.recording = nil
        }
    }

    /// The names the app's files mention (the demo's source when the session runs the demo): a
    /// global the setup assigns that the app reads is one the replay needs.
    private nonisolated(nonsending) func appNames() async -> Set<String> {
        let files = await host.appFiles
        let sources = files.isEmpty ? [DemoApp.source] : files.compactMap(AppChecker.readFile)
        return sources.reduce(into: Set<String>()) { $0.formUnion(RecordedLua($1).names) }
    }

    private nonisolated(nonsending) func activeIDs() async -> [String] {
        await host.router?.activePath.map(\.id) ?? []
    }
}
