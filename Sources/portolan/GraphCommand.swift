import ArgumentParser
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan graph`: draws an app's declared graph.
struct Graph: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type's name: deriving it costs the parser a reflective
        // String(describing:) at every start-up, the REPL's included (Benchmarks/README.md, "Start-up").
        commandName: "graph",
        abstract: "Draw an app's declared graph.",
        discussion: """
            Formats: text (an indented tree), dot (Graphviz), mermaid (a flowchart), json, and svg \
            (a self-contained picture, drawn by Portolan itself). Switch nodes are marked, a switch's \
            initial child is emphasised, and nodes reachable from anywhere are drawn apart. Each \
            node shows its URL route patterns, and in brackets its rules: guard (with where it \
            redirects, when the app file says so literally: guard → /login), can_leave, \
            context_task, keep on a switch node that keeps its tabs' stacks, and back: history on \
            one that back returns through its history. Under the drawing: the redirect rules \
            (redirect /item/:id → /p/:id), a queue other than fifo, the schemes and hosts, and the \
            flows; JSON gives each its own field. The REPL's :graph also draws the live tree.

            The app loads under the same limits as portolan check: an instruction budget, and \
            --timeout seconds (\(Int(AppLoadLimits.timeLimit.components.seconds)) by default) after which its \
            script is interrupted.

            """ + ExitStatusHelp.paragraph([
                (0, "drawn"),
                (1, "the app does not load or declares no app"),
            ])
    )

    @OptionGroup var script: AppScript

    /// The app script to draw.
    var app: String { script.path }

    @Option(help: "text, dot, mermaid, json or svg.")
    var format: GraphFormat = .text

    @Option(help: ArgumentHelp("How long the app's script may run before it is interrupted.", valueName: "seconds"))
    var timeout = Double(AppLoadLimits.timeLimit.components.seconds)

    func validate() throws {
        guard timeout > 0, ScriptNumbers.duration(seconds: timeout) != nil else {
            throw ValidationError(
                "--timeout must be a positive number of seconds up to \(Int64(ScriptNumbers.maxSeconds)), not \(timeout).")
        }
    }

    func run() async throws {
        do {
            let host = try PortolanHost(configuration: AppLoadLimits.configuration)
            await host.setOutput { _ in }
            let app = self.app
            let limit = ScriptNumbers.duration(seconds: timeout) ?? AppLoadLimits.timeLimit
            try await AppLoadLimits.loadApp(host, file: app, within: limit)
            guard let graph = await host.graph, let picture = await AppRulesPicture.read(from: host, file: app) else {
                throw HostError("\(app) declares no app: it never calls portolan.app { ... }")
            }
            let style = picture.style(for: graph)
            // Ids are the app's, and the drawing may land in a CI log.
            let notation: CILogText.Notation = switch format {
            case .json: .json
            case .svg: .xml
            case .text, .dot, .mermaid: .text
            }
            StandardStreams.report(GraphRenderer.render(graph, as: format, style: style), as: notation)
        } catch let error as HostError {
            StandardStreams.errorLine("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}

extension GraphFormat: ExpressibleByArgument {}
