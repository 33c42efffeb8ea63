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
        subcommands: [Repl.self, Test.self, Graph.self, Check.self, Types.self],
        defaultSubcommand: Repl.self
    )

    /// `--inspect` may come without its port (`Repl.givingInspectItsPort`).
    static func main() async {
        await main(Repl.givingInspectItsPort(Array(CommandLine.arguments.dropFirst())))
    }

    /// What `--version` prints: `portolan 0.10.0 (Lua 5.4.4)`, the Lua release being the linked library's, so
    /// that it can be checked against Lua's list of bugs (both releases when it differs from the build's lua.h).
    static var versionLine: String {
        "portolan \(PortolanVersion.current) (\(LuaState.releaseDescription))"
    }
}
