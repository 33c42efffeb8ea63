import ArgumentParser
import PortolanTools

/// `portolan types`: the definitions an editor's Lua language server needs to complete and check
/// app scripts and scenario files.
struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Print the Lua language server's definitions of the portolan module and the scenario globals.",
        discussion: """
            Prints a LuaLS definitions file (---@meta): the portolan module's functions, node tables \
            with every field and handler signature, the request, entry, info and error objects \
            handlers receive, and the globals of a scenario file (expect, expect_events, exhaustive, \
            scenario, scenario.each, skip). Save it (portolan types > portolan.d.lua, or --output) and \
            list its directory in workspace.library of a .luarc.json, as Examples/.luarc.json does, so \
            that VS Code's Lua extension completes and checks app scripts.

            """ + ExitStatusHelp.paragraph([
                (0, "printed or written"),
                (1, "the --output file cannot be written"),
            ])
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the definitions to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        guard let output else {
            StandardStreams.write(EditorDefinitions.text)
            return
        }
        do {
            try WholeFile.write(EditorDefinitions.text, to: output)
        } catch {
            StandardStreams.errorLine("portolan types: \(error.description)")
            throw ExitCode(1)
        }
    }
}
