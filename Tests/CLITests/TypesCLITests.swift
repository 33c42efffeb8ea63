import Foundation
import Testing
import TestSupport

/// `portolan types`, end to end: the LuaLS definitions it prints are the file the examples' editor
/// set-up uses (a link to the definitions' source), and `--output` writes the same.
@Suite struct TypesCLITests {
    @Test func theCommittedDefinitionsAreWhatTheBinaryPrints() async throws {
        let run = try await PortolanBinary.run(["types"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("---@meta portolan\n"))
        let committed = try String(contentsOfFile: Repository.root + "/Examples/types/portolan.lua", encoding: .utf8)
        #expect(run.stdout == committed, "Examples/types/portolan.lua is not what the binary prints: is it still a link to EditorDefinitions.lua?")
    }

    @Test func theExamplesLuarcPointsAtTheDefinitions() throws {
        let text = try String(contentsOfFile: Repository.root + "/Examples/.luarc.json", encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let library = try #require(object["workspace.library"] as? [String])
        #expect(library == ["types"])
        #expect(FileManager.default.fileExists(atPath: Repository.root + "/Examples/types/portolan.lua"))
        #expect(object["runtime.version"] as? String == "Lua 5.4")
    }

    @Test func outputWritesTheSameFileAndAnUnwritableOneIsStatusOne() async throws {
        let directory = try TemporaryDirectory("cli")
        defer { directory.remove() }
        let printed = try await PortolanBinary.run(["types"])
        let written = try await PortolanBinary.run(["types", "--output", "portolan.d.lua"], in: directory)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        #expect(try String(contentsOfFile: directory.path("portolan.d.lua"), encoding: .utf8) == printed.stdout)
        let refused = try await PortolanBinary.run(["types", "--output", "no/such/dir/portolan.d.lua"], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot write no/such/dir/portolan.d.lua"), "\(refused.stderr)")
    }

    /// Each command's help ends with its exit statuses, the usage error's 64 included.
    @Test func everyHelpListsTheExitStatuses() async throws {
        for command in [[], ["repl"], ["test"], ["graph"], ["check"], ["types"]] {
            let run = try await PortolanBinary.run(command + ["--help"])
            #expect(run.status == 0, "\(command)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let start = try #require(lines.firstIndex(of: "Exit status:"), "\(command): \(run.stdout)")
            // Every status on a line of its own: a meaning that wrapped would end the list early.
            let statuses = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(statuses.first == "0", "\(command): \(statuses)")
            #expect(statuses.contains("1"), "\(command): \(statuses)")
            #expect(statuses.contains("64"), "\(command): \(statuses)")
            #expect(statuses.map { Int($0) ?? -1 } == statuses.map { Int($0) ?? -1 }.sorted(), "\(command): \(statuses)")
        }
        let check = try await PortolanBinary.run(["check", "--help"])
        #expect(check.stdout.contains("  2    the app file cannot be read"))
        let repl = try await PortolanBinary.run(["repl", "--help"])
        #expect(repl.stdout.contains("  130  Ctrl-C"))
    }

    @Test func aUsageErrorIsStatus64AsTheHelpSays() async throws {
        for arguments in [["check", "--format", "xml", "Examples/lint/good_app.lua"], ["graph"], ["types", "--bogus"]] {
            let run = try await PortolanBinary.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
    }
}
