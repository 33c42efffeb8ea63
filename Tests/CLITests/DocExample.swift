import Foundation
import Testing
import TestSupport

/// A fenced code block of `README.md` or a page in `docs/`, as the documentation tests run it.
///
/// The info string says what a Lua block is (CONTRIBUTING.md, "Docs by audience"):
/// - ```` ```lua ````: a whole app, run by `portolan check` and loaded by `portolan test`;
/// - ```` ```lua scenario app=PATH ````: a scenario file, run against the app at `PATH` (from the
///   package root), or against the page's previous app block with `app=above`;
/// - ```` ```lua fragment ````: not runnable on purpose, skipped.
///
/// A ```` ```text repl ```` block is a REPL session on the built-in demo app: the lines after
/// `portolan> ` are typed, every other line is what the REPL prints.
struct DocExample: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable, Equatable {
        case app
        case scenario(app: String)
        case fragment
        case shell
        case replTranscript
        /// A Lua block whose info string the tests do not know: it fails, so that no block is
        /// skipped by a typo.
        case unknown(String)
    }

    /// `docs/rules.md`, from the package root.
    var file: String
    /// The line of the opening fence, from 1.
    var line: Int
    var kind: Kind
    var text: String
    /// The text of the page's last app block before this one, for `app=above`.
    var appAbove: String?

    var testDescription: String { "\(file):\(line)" }

    /// README.md and every page in docs/, in order.
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Repository.root + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// Every Lua and shell block of every page.
    static let all: [DocExample] = pages.flatMap { page in
        let text = (try? String(contentsOfFile: Repository.root + "/" + page, encoding: .utf8)) ?? ""
        return blocks(in: text, file: page)
    }

    static var lua: [DocExample] { all.filter { $0.kind != .shell && $0.kind != .replTranscript } }
    static var shell: [DocExample] { all.filter { $0.kind == .shell } }
    static var transcripts: [DocExample] { all.filter { $0.kind == .replTranscript } }

    /// What a transcript types, a line each, and what the REPL prints in answer.
    var typedAndPrinted: (typed: String, printed: String) {
        let prompt = "portolan> "
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let typed = lines.filter { $0.hasPrefix(prompt) }.map { $0.dropFirst(prompt.count) + "\n" }
        let printed = lines.filter { !$0.hasPrefix(prompt) }.map { $0 + "\n" }
        return (typed.joined(), printed.joined())
    }

    /// The fenced blocks of one page whose language is `lua` or `sh`, and its REPL transcripts.
    static func blocks(in page: String, file: String) -> [DocExample] {
        var found: [DocExample] = []
        var open: (line: Int, info: [Substring], indent: Int, body: [Substring])?
        var lastApp: String?
        for (index, rawLine) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = rawLine.drop { $0 == " " }
            if var block = open {
                if trimmed.hasPrefix("```") {
                    open = nil
                    let text = block.body.joined(separator: "\n") + "\n"
                    guard let kind = kind(of: block.info) else { continue }
                    found.append(DocExample(file: file, line: block.line, kind: kind, text: text, appAbove: lastApp))
                    if kind == .app { lastApp = text }
                } else {
                    block.body.append(rawLine.dropFirst(min(block.indent, rawLine.prefix { $0 == " " }.count)))
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                let info = trimmed.dropFirst(3).split(separator: " ")
                open = (index + 1, info, rawLine.count - trimmed.count, [])
            }
        }
        return found
    }

    /// What a block's info string makes of it; nil for a language the tests do not run.
    private static func kind(of info: [Substring]) -> Kind? {
        switch info.first {
        case "sh", "bash": return .shell
        case "text": return info.dropFirst().first == "repl" ? .replTranscript : nil
        case "lua": break
        default: return nil
        }
        let words = info.dropFirst()
        switch words.first {
        case nil: return .app
        case "fragment": return words.count == 1 ? .fragment : .unknown(info.joined(separator: " "))
        case "scenario":
            guard words.count == 2, let app = words.last, app.hasPrefix("app="), app.count > 4 else {
                return .unknown(info.joined(separator: " "))
            }
            return .scenario(app: String(app.dropFirst(4)))
        default: return .unknown(info.joined(separator: " "))
        }
    }

    /// The subcommands a shell line runs as `portolan SUBCOMMAND`, outside its comment.
    static func subcommands(inShellLine line: Substring) -> [String] {
        let command = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return command.matches(of: /(?:^|[\s\/"'(|;&])portolan[ \t]+([a-z][a-z-]*)(?=\s|$)/).map { String($0.1) }
    }
}
