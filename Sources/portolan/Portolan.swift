import ArgumentParser
import Lua
import Portolan

@main
struct Portolan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portolan",
        abstract: "A headless navigation engine whose rules are Lua scripts.",
        discussion: """
            With no subcommand, starts the REPL on the built-in demo app.
            """,
        version: versionLine,
        subcommands: [Repl.self, Test.self, Graph.self, Check.self],
        defaultSubcommand: Repl.self
    )

    /// What `--version` prints: `portolan 0.10.0 (Lua 5.4.4)`, the Lua release being the linked library's, so
    /// that it can be checked against Lua's list of bugs. When the library differs from the lua.h the build
    /// used (the system's Lua upgraded since), both are named.
    static var versionLine: String {
        let lua = LuaState.release == LuaState.compiledRelease
            ? LuaState.release
            : "\(LuaState.release), built against \(LuaState.compiledRelease)"
        return "portolan \(PortolanVersion.current) (\(lua))"
    }
}
