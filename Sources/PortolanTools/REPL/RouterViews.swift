import Portolan
import PortolanLua
import PortolanShipping

/// `:tree`, `:graph` and `:history`: the app's router shown, nothing changed. (The `portolan repl`
/// command itself is `ReplCommand.swift`, in the CLI.)
struct RouterViews {
    let host: PortolanHost
    let printer: ReplPrinter

    /// `:tree`: the live tree, the active path marked; when a switch node off the active path
    /// shows a child (a tab left with its stack), a line under it says what that mark means.
    nonisolated(nonsending) func tree() async {
        guard let router = await host.router else {
            printer.write("(no app declared yet: call portolan.app { ... })")
            return
        }
        let drawing = GraphRenderer.activeTree(router.tree)
        printer.write(drawing)
        if drawing.split(separator: "\n").contains(where: { $0.hasSuffix(" " + GraphRenderer.shownOffPathMark) }) {
            printer.say(Self.keptLegend, .note)
        }
    }

    /// What the marks of `GraphRenderer.activeTree` mean.
    static let keptLegend = "(* the active path; · what a switch node off it shows when you switch back to it)"

    /// `:graph [FORMAT [FILE]]`: the first word is always a format, so a misspelt one is an error
    /// rather than the name of a file to write.
    nonisolated(nonsending) func graph(_ argument: String) async {
        let words = argument.split(separator: " ").map(String.init)
        let formats = GraphFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard words.count <= 2 else {
            printer.say("error: :graph takes a format (\(formats)) and a file, as in :graph svg tree.svg", .error)
            return
        }
        var format = GraphFormat.text
        if let word = words.first {
            guard let named = GraphFormat(rawValue: word) else {
                printer.say("error: :graph: unknown format '\(Excerpt.of(word))'; the formats are \(formats) (:graph svg tree.svg writes a file)", .error)
                return
            }
            format = named
        }
        let file = words.count == 2 ? words[1] : nil
        // An SVG is a picture: in a terminal it is only kilobytes of XML.
        guard format != .svg || file != nil else {
            printer.say("error: :graph svg writes a picture to a file, as in :graph svg tree.svg (then open tree.svg in a browser)", .error)
            return
        }
        guard let router = await host.router else {
            printer.say("(no app declared yet: call portolan.app { ... })", .note)
            return
        }
        let drawing = GraphRenderer.render(router.tree, as: format)
        guard let file else {
            printer.write(drawing)
            return
        }
        do {
            try WholeFile.write(drawing.hasSuffix("\n") ? drawing : drawing + "\n", to: file)
            printer.say("wrote the live tree as \(format.rawValue) to \(file)", .note)
        } catch {
            printer.say("error: \(error.description)", .error)
        }
    }

    /// `:history`: the router's finished routes (`portolan.history()`), numbered, with what each did.
    nonisolated(nonsending) func history() async {
        let records = await host.router?.history ?? []
        guard !records.isEmpty else {
            printer.say("(no routes yet)", .note)
            return
        }
        let width = String(records.count).count
        let pad = String(repeating: " ", count: width + 2)
        for (index, record) in records.enumerated() {
            let number = String(index + 1)
            printer.write(String(repeating: " ", count: width - number.count) + number + "  " + record.requested.requestText(failure: record.failure))
            if let arrival = RouteReport.arrival(of: record) {
                printer.say(pad + "\(arrival) \(Excerpt.of(record.settled.description))", .note)
            }
            for instruction in record.executed { printer.say(pad + "  \(instruction)", .instruction) }
            if let failure = record.failure {
                printer.say(pad + "failed: \(failure)", .error)
                for instruction in failure.rolledBack { printer.say(pad + "  rolled back: \(instruction)", .instruction) }
            } else if record.executed.isEmpty {
                printer.say(pad + "(nothing to do)", .note)
            }
        }
    }
}
