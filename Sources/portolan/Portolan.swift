import ArgumentParser
import Lua
import Portolan

@main
struct Portolan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portolan",
        abstract: "A headless navigation engine whose rules are Lua scripts.",
        discussion: """
            With no subcommand, starts the REPL on the built-in demo app, and exits as the REPL does; \
            each subcommand's --help lists its own exit statuses. --help and --version exit with 0.

            """ + ExitStatusHelp.paragraph(Repl.exitStatuses),
        version: versionLine,
        subcommands: [Repl.self, Test.self, Explore.self, Graph.self, Check.self, Types.self, Snapshot.self, Bundle.self],
        defaultSubcommand: Repl.self
    )

    /// The entry point: `portolan`, `portolan repl` and `portolan repl APP` start the REPL at once
    /// (`DirectRepl`); every other command line goes through the parser, `--inspect` given its
    /// port when it came without one (`Repl.givingInspectItsPort`).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let direct = DirectRepl(arguments: arguments) else {
            await main(Repl.givingInspectItsPort(arguments))
            return
        }
        do {
            try await Repl.runSession(app: direct.app, watch: false)
        } catch {
            exit(withError: error)
        }
    }

    /// What `--version` prints: `portolan 0.10.0 (Lua 5.4.4)`, the Lua release being the linked library's, so
    /// that it can be checked against Lua's list of bugs (both releases when it differs from the build's lua.h).
    static var versionLine: String {
        "portolan \(PortolanVersion.current) (\(LuaState.releaseDescription))"
    }
}
