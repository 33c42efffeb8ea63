import Foundation
import Testing
import TestSupport

/// Every example of the README and of docs/ runs as it stands, through the built binary: a pasted
/// example never fails (issue 19). How a block says what it is: `DocExample`.
struct DocExamplesTests {
    /// The extraction itself: if it found nothing, every test below would pass on nothing.
    @Test func thePagesHaveRunnableExamples() throws {
        #expect(DocExample.pages.contains("README.md"))
        #expect(DocExample.pages.contains("docs/rules.md"))
        let lua = DocExample.lua
        #expect(lua.count >= 8, "\(lua.map(\.testDescription))")
        #expect(lua.contains { $0.kind == .app && $0.file == "README.md" })
        #expect(lua.contains { if case .scenario = $0.kind { true } else { false } })
        #expect(DocExample.shell.count >= 5)
        #expect(DocExample.transcripts.count >= 2)
        // A fragment is a block no test runs: it must stay rare.
        let fragments = lua.filter { $0.kind == .fragment }
        #expect(fragments.count * 10 <= lua.count, "\(fragments.map(\.testDescription))")
    }

    @Test func theExtractorReadsInfoStrings() throws {
        let page = """
            ```lua
            portolan.app { id = "root" }
            ```
            ```lua scenario app=above
            scenario("x", function() end)
            ```
            ```lua fragment
            { id = "x" }
            ```
            ```lua scenerio app=above
            ```
              ```sh
              portolan check app.lua   # portolan nothing
              ```
            ```text
            portolan> :tree
            ```
            """
        let blocks = DocExample.blocks(in: page, file: "p.md")
        try #require(blocks.count == 5)
        #expect(blocks[0].kind == .app && blocks[0].text == "portolan.app { id = \"root\" }\n")
        #expect(blocks[1].kind == .scenario(app: "above") && blocks[1].appAbove == blocks[0].text)
        #expect(blocks[2].kind == .fragment)
        #expect(blocks[3].kind == .unknown("lua scenerio app=above"))
        #expect(blocks[4].kind == .shell && blocks[4].line == 12)
        #expect(DocExample.subcommands(inShellLine: blocks[4].text.split(separator: "\n")[0]) == ["check"])
        #expect(DocExample.subcommands(inShellLine: "rm PREFIX/bin/portolan PREFIX/bin/portolan-inspector").isEmpty)
        #expect(DocExample.subcommands(inShellLine: "mkdir -p t && portolan types > t/p.lua") == ["types"])
    }

    @Test(arguments: DocExample.lua)
    func luaBlockRuns(_ example: DocExample) async throws {
        switch example.kind {
        case .fragment:
            return
        case .unknown(let info):
            Issue.record("\(example.testDescription): unknown info string '\(info)': use lua, lua scenario app=PATH or lua fragment")
        case .app:
            try await runApp(example)
        case .scenario(let app):
            try await runScenario(example, app: app)
        case .shell, .replTranscript:
            Issue.record("\(example.testDescription): not a Lua block")
        }
    }

    /// A REPL session shown in the docs prints what it shows, typed into the real REPL.
    @Test(arguments: DocExample.transcripts)
    func replTranscriptPrintsWhatItShows(_ example: DocExample) throws {
        let (typed, printed) = example.typedAndPrinted
        #expect(!typed.isEmpty, "\(example.testDescription): nothing typed")
        let run = try ReplBinary.run([], input: typed)
        #expect(run.status == 0, "\(example.testDescription): \(run.output)\(run.error)")
        #expect(run.output == printed, "\(example.testDescription)")
    }

    /// Each `portolan SUBCOMMAND` a shell block names is one the binary has.
    @Test func everySubcommandTheShellBlocksNameExists() async throws {
        var subcommands: Set<String> = []
        for example in DocExample.shell {
            for line in example.text.split(separator: "\n") {
                subcommands.formUnion(DocExample.subcommands(inShellLine: line))
            }
        }
        #expect(subcommands.isSuperset(of: ["test", "check", "repl", "graph", "types"]), "\(subcommands.sorted())")
        for subcommand in subcommands.sorted() {
            let run = try await PortolanBinary.run([subcommand, "--help"])
            #expect(run.status == 0, "portolan \(subcommand) --help: \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("USAGE: portolan \(subcommand)"), "portolan \(subcommand) --help: \(run.stdout)")
        }
    }

    /// Loads an app block, then fails if a handler of a route its script ran hit a Lua error
    /// (`attempt to call a nil value`): a handler that raises fails only its route, so a pasted
    /// example whose `enter` calls an undefined function (the old tour's `show`) loads without
    /// error. Routes denied, blocked or failed on purpose (`return false, "why"`) pass.
    private static let probe = """
        scenario("the example loads, and no handler of it failed", function()
          expect(#portolan.active_path() > 0, true)
          for _, record in ipairs(portolan.history()) do
            local err = record.error
            local broken = err and err.kind == "handler_failed"
              and (err.message:find("attempt to", 1, true) or err.message:find("bad argument", 1, true))
            expect(broken and err.message or nil, nil)
          end
        end)

        """

    /// An app block loads under the linter with no error, and under the scenario runner.
    private func runApp(_ example: DocExample) async throws {
        let probe = Self.probe
        let directory = try TemporaryDirectory("cli", files: ["app.lua": example.text, "probe.lua": probe])
        defer { directory.remove() }
        let check = try await PortolanBinary.run(["check", "app.lua"], in: directory)
        #expect(check.status == 0, "\(example.testDescription): portolan check: \(check.stdout)\(check.stderr)")
        let test = try await PortolanBinary.run(["test", "--app", "app.lua", "probe.lua"], in: directory)
        #expect(test.status == 0, "\(example.testDescription): portolan test: \(test.stdout)\(test.stderr)")
        #expect(test.lastLine == "1 passed, 0 failed", "\(example.testDescription): \(test.stdout)")
    }

    /// A scenario block passes against its app.
    private func runScenario(_ example: DocExample, app: String) async throws {
        var files = ["s.lua": example.text]
        let appPath: String
        if app == "above" {
            let above = try #require(example.appAbove, "\(example.testDescription): app=above, but no app block above it")
            files["app.lua"] = above
            appPath = "app.lua"
        } else {
            appPath = Repository.root + "/" + app
            #expect(FileManager.default.fileExists(atPath: appPath), "\(example.testDescription): no app at \(app)")
        }
        let directory = try TemporaryDirectory("cli", files: files)
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--app", appPath, "s.lua"], in: directory)
        #expect(run.status == 0, "\(example.testDescription): \(run.stdout)\(run.stderr)")
        #expect(run.lastLine.wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil, "\(example.testDescription): \(run.stdout)")
    }
}
