import Portolan
import PortolanLua

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `:` commands beyond routing and planning, completion, and the file watch.
extension ReplSession {
    /// The Lua function that says whether a chunk compiles as a statement; not meant for users.
    static let compilesFunction = "__portolan_repl_compiles"

    // MARK: :back

    /// Leaves the top unmanaged node of the active path: routes to the path without it.
    func back() async {
        guard let router = await host.router else {
            say("error: no app declared yet: call portolan.app { ... }", .error)
            return
        }
        let nodes = router.tree.activeNodes
        guard let top = nodes.indices.dropFirst().last(where: { !nodes[$0].isManaged }) else {
            say("(nothing to go back from: every node of the active path is the root or managed by a switch node)", .note)
            return
        }
        await route(to: .path(nodes[..<top].map(\.entry)), label: ":back")
    }

    // MARK: :history

    /// Remembers the routes a line ran, for `:history`.
    func remember(_ reports: [RouteReport], label: String) {
        for report in reports {
            routeHistory.append((label: label, report: report))
        }
    }

    func showHistory() {
        guard !routeHistory.isEmpty else {
            say("(no routes yet)", .note)
            return
        }
        let width = String(routeHistory.count).count
        for (index, item) in routeHistory.enumerated() {
            let number = String(index + 1)
            let label = item.label.split(separator: "\n").joined(separator: " ⏎ ")
            let report = item.report
            var line = String(repeating: " ", count: width - number.count) + number + "  " + label
            if let requested = report.requested, requested.description != label { line += "  (to \(requested))" }
            write(line)
            let pad = String(repeating: " ", count: width + 2)
            if let settled = report.settled, let requested = report.requested, settled != requested {
                say(pad + "redirected to \(settled)", .note)
            }
            for instruction in report.instructions { say(pad + "  \(instruction)", .instruction) }
            if let failure = report.failure {
                say(pad + "failed: \(failure)", .error)
            } else if report.instructions.isEmpty {
                say(pad + "(nothing to do)", .note)
            }
        }
    }

    // MARK: :reload and --watch

    /// Runs the app script again; `reason` names the file that changed (for `--watch`).
    func reload(reason: String?) async {
        let header = reason.map { "\($0) changed: " } ?? ""
        do {
            let left: [Instruction]
            if await host.appFile != nil {
                left = try await host.reload()
            } else {
                left = try await host.reload(source: DemoApp.source, chunkName: DemoApp.chunkName)
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
        noteFiles()
    }

    /// The files `--watch` watches: the app file, and those `portolan.load` ran.
    public var watchedFiles: [String] {
        var files: [String] = []
        if let app = appArgument { files.append(app) }
        let directory = appArgument.map(FilePaths.directory(of:))
        for path in loadedFiles.value ?? [] {
            var resolved = path
            if !path.hasPrefix("/"), access(path, F_OK) != 0, let directory, access(directory + "/" + path, F_OK) == 0 {
                resolved = directory + "/" + path
            }
            if !files.contains(resolved) { files.append(resolved) }
        }
        return files
    }

    /// Notes how the watched files are now.
    func noteFiles() {
        stamps = [:]
        for file in watchedFiles { stamps[file] = FileStamp(file) }
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
            recorder.start()
            await reload(reason: file)
            _ = recorder.stop()
            return true
        }
        return false
    }

    // MARK: :record

    func record(_ argument: String) async {
        if argument.isEmpty || argument == "off" {
            guard let recording else {
                say(argument.isEmpty
                    ? "error: :record needs a file, as in :record session.lua (:record off stops)"
                    : "(not recording)", argument.isEmpty ? .error : .note)
                return
            }
            say("recorded \(recording.routeCount) route\(recording.routeCount == 1 ? "" : "s") to \(recording.path)", .note)
            self.recording = nil
            return
        }
        if let recording {
            say("recorded \(recording.routeCount) route\(recording.routeCount == 1 ? "" : "s") to \(recording.path)", .note)
        }
        var fresh = ReplRecording(path: argument, app: appArgument ?? DemoApp.chunkName, appName: appName)
        // The routes replay from where the session is now: get there first.
        if let router = await host.router {
            let path = router.activePath.map(\.id)
            if path != RoutingTree(graph: router.tree.graph).activePath.map(\.id) {
                fresh.append(.note("recording started at \(path.joined(separator: " > ")); the replay starts where the app starts"))
            }
        }
        do {
            try fresh.write()
        } catch {
            say("error: \(error.message)", .error)
            return
        }
        recording = fresh
        say("recording to \(argument) (routes, and the Lua typed between them); :record off stops", .note)
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

    // MARK: :events

    func events(_ argument: String) {
        switch argument {
        case "on":
            showsEvents.value = true
            say("router events will be shown as they happen (· will_route, · instruction, · did_route, · failed)", .note)
        case "off":
            showsEvents.value = false
            say("router events hidden", .note)
        default:
            say("error: :events takes on or off", .error)
        }
    }

    // MARK: :graph

    func graph(_ argument: String) async {
        let words = argument.split(separator: " ").map(String.init)
        var format = GraphFormat.text
        var file: String?
        for word in words {
            if let named = GraphFormat(rawValue: word), file == nil, format == .text, word == words.first {
                format = named
            } else if file == nil {
                file = word
            } else {
                say("error: :graph takes a format (text, dot, mermaid, json, svg) and a file, as in :graph svg tree.svg", .error)
                return
            }
        }
        guard let router = await host.router else {
            say("(no app declared yet: call portolan.app { ... })", .note)
            return
        }
        let drawing = GraphRenderer.render(router.tree, as: format)
        guard let file else {
            write(drawing)
            return
        }
        do {
            try ReplRecording.write(drawing.hasSuffix("\n") ? drawing : drawing + "\n", to: file)
            say("wrote the live tree as \(format.rawValue) to \(file)", .note)
        } catch {
            say("error: \(error.message)", .error)
        }
    }

    // MARK: Completion

    /// What Tab offers for `prefix`, the text of the line before the cursor.
    public func complete(_ prefix: String) async -> ReplCompletion {
        let graph = await host.graph
        switch Completer.request(for: prefix, atChunkStart: pending.isEmpty) {
        case .command(let partial):
            return ReplCompletion(
                word: ":" + partial,
                candidates: ReplInput.commandNames.filter { $0.hasPrefix(partial) }.map { ":" + $0 })
        case .commandArgument(let word, let choices):
            return ReplCompletion(word: word, candidates: choices.filter { $0.hasPrefix(word) })
        case .url(let text):
            guard let graph else { return .none }
            return ReplCompletion(word: text, candidates: Completer.urls(text, graph: graph))
        case .string(let contents):
            guard let graph else { return .none }
            if contents.first == "/" || ReplInput.isURL(contents) {
                return ReplCompletion(word: contents, candidates: Completer.urls(contents, graph: graph))
            }
            return ReplCompletion(word: contents, candidates: Completer.nodeIDs(contents, graph: graph))
        case .name(let table, let partial, _):
            var names = await keys(of: table ?? "", prefix: partial)
            if table == nil { names += Completer.keywords.filter { $0.hasPrefix(partial) } }
            return ReplCompletion(word: partial, candidates: names)
        case .nothing:
            return .none
        }
    }

    /// The string keys of the table a dotted path names (`_G` for ""), read without metamethods.
    private func keys(of table: String, prefix: String) async -> [String] {
        outcome.value = nil
        do {
            try await host.run(
                "\(Self.keysFunction)(\(Self.luaLiteral(table)), \(Self.luaLiteral(prefix)))", chunkName: "=complete")
        } catch {
            return []
        }
        return outcome.value?.values ?? []
    }
}

/// How a file was when last seen: enough to notice an edit.
struct FileStamp: Equatable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var exists: Bool

    init(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            #if canImport(Darwin)
            seconds = Int(status.st_mtimespec.tv_sec)
            nanoseconds = Int(status.st_mtimespec.tv_nsec)
            #else
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
            #endif
            size = Int(status.st_size)
            exists = true
        } else {
            seconds = 0
            nanoseconds = 0
            size = 0
            exists = false
        }
    }
}
