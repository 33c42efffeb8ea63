import ArgumentParser

@main
struct Portolan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portolan",
        abstract: "A headless navigation engine whose rules are Lua scripts.",
        discussion: """
            With no subcommand, starts the REPL on the built-in demo app.
            """,
        subcommands: [Repl.self, Test.self, Graph.self, Check.self],
        defaultSubcommand: Repl.self
    )
}
