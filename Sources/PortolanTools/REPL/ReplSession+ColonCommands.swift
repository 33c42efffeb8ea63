import Portolan
import PortolanLua

/// The `:` commands that are neither routes nor history, watch or recording: `:back`, `:events`
/// and `:graph`. (The `portolan repl` command itself is `ReplCommand.swift`, in the CLI.)
extension ReplSession {
    // MARK: :back

    /// Goes back, as `portolan.back()` does: leaves the top screen, or returns a switch node that
    /// goes back through its history to its previous child.
    func back() async {
        guard await host.router != nil else {
            say("error: no app declared yet: call portolan.app { ... }", .error)
            return
        }
        await route(label: ":back", recordedAs: "portolan.back()") { host in host.back() }
    }

    // MARK: :events

    func events(_ argument: String) {
        switch argument {
        case "on":
            showsEvents.withLock { $0 = true }
            let names = RouterEvent.Name.observedByScripts.map { "· \($0.rawValue)" }.joined(separator: ", ")
            say("router events will be shown as they happen (\(names))", .note)
        case "off":
            showsEvents.withLock { $0 = false }
            say("router events hidden", .note)
        default:
            say("error: :events takes on or off", .error)
        }
    }

    // MARK: :graph

    /// `:graph [FORMAT [FILE]]`: the first word is always a format, so a misspelt one is an error
    /// rather than the name of a file to write.
    func graph(_ argument: String) async {
        let words = argument.split(separator: " ").map(String.init)
        let formats = GraphFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard words.count <= 2 else {
            say("error: :graph takes a format (\(formats)) and a file, as in :graph svg tree.svg", .error)
            return
        }
        var format = GraphFormat.text
        if let word = words.first {
            guard let named = GraphFormat(rawValue: word) else {
                say("error: :graph: unknown format '\(Excerpt.of(word))'; the formats are \(formats) (:graph svg tree.svg writes a file)", .error)
                return
            }
            format = named
        }
        let file = words.count == 2 ? words[1] : nil
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
            try WholeFile.write(drawing.hasSuffix("\n") ? drawing : drawing + "\n", to: file)
            say("wrote the live tree as \(format.rawValue) to \(file)", .note)
        } catch {
            say("error: \(error.description)", .error)
        }
    }
}
