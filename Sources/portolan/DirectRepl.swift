/// The command lines that only start the REPL — `portolan`, `portolan repl` and
/// `portolan repl APP` — recognised without the argument parser.
///
/// Why: the parser builds its model of every command at each start (reflection over each
/// command's properties, and the first protocol-conformance lookups of the Swift runtime that this
/// sets off, each a scan of the whole conformance table): about a third of the instructions the
/// REPL ran before its prompt (Benchmarks/README.md, "Start-up"). Anything else — an option such
/// as `--watch` or `--help`, another subcommand, `portolan APP` (where the parser decides whether
/// APP names a subcommand) — goes through the parser, so that what a command line means does not
/// depend on the path it takes.
struct DirectRepl {
    /// The app script to load; nil for the built-in demo app.
    let app: String?

    /// nil unless `arguments` (without the program's name) only start the REPL.
    init?(arguments: [String]) {
        switch arguments.count {
        case 0:
            app = nil
        case 1 where arguments[0] == "repl":
            app = nil
        case 2 where arguments[0] == "repl" && Self.isPlainValue(arguments[1]):
            app = arguments[1]
        default:
            return nil
        }
    }

    /// A value the parser would take as the app without question: not an option, not `help`.
    private static func isPlainValue(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && text != "help"
    }
}
