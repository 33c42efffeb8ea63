import Foundation
import Testing
import TestSupport

/// Every command loads an app the same way: an app that requires its own module works under
/// each of them, run from any working directory.
@Suite struct AppLoadingCLITests {
    static let files = [
        "helpers.lua": #"return { screen = function(id) return { id = id, route = "/" .. id } end }"#,
        "app.lua": #"""
            local helpers = require "helpers"
            portolan.app { id = "root", children = { helpers.screen("home"), helpers.screen("about") } }
            """#,
        "s.lua": #"""
            scenario("about", function() expect(portolan.route("/about"), { "enter about" }) end)
            """#,
    ]

    @Test func graphFindsTheAppsOwnModules() async throws {
        let directory = try TemporaryDirectory("cli", files: Self.files)
        defer { directory.remove() }
        // Run from the package root: the app's directory, not the working one, holds its modules.
        let run = try await PortolanBinary.run(["graph", directory.path("app.lua")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("about  /about"))
    }

    @Test func testCheckAndReplFindThemToo() async throws {
        let directory = try TemporaryDirectory("cli", files: Self.files)
        defer { directory.remove() }
        let test = try await PortolanBinary.run(["test", "--app", directory.path("app.lua"), directory.path("s.lua")])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        let check = try await PortolanBinary.run(["check", directory.path("app.lua")])
        #expect(!check.stdout.contains("not found"), "\(check.stdout)")
    }

    /// Issue 10, item 4: `graph` ran an endless app forever, and `check`, `test` and the REPL each
    /// had limits of their own. All four now load an app under the same budget and time limit.
    @Test(.timeLimit(.minutes(10))) func everyCommandStopsAnAppThatLoopsWhileItLoads() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "loops.lua": "portolan.app { id = \"root\" }\nwhile true do end\n",
            "s.lua": #"scenario("never reached", function() expect(1, 1) end)"#,
        ])
        defer { directory.remove() }
        for arguments in [["graph", "loops.lua"], ["check", "loops.lua"], ["test", "--app", "loops.lua", "s.lua"], ["repl", "loops.lua"]] {
            let run = try await PortolanBinary.run(arguments, in: directory)
            #expect(run.status == 1, "\(arguments): \(run.stdout)\(run.stderr)")
            // Each in its own form (check's is a finding), all at the looping line, ended by the budget or,
            // on a busy machine, by the load's time limit.
            let said = run.stdout + run.stderr
            #expect(said.contains("loops.lua:2: ") && (said.contains("instruction budget exceeded") || said.contains("did not finish within")),
                    "\(arguments): \(said)")
        }
    }

    /// A misuse of the module in a tail call names the app's line through every command, never
    /// the module's own chunk (`portolan:296:`).
    @Test func aMisuseOfTheModuleNamesTheAppsLineInEveryCommand() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": """
                portolan.app { id = "root", children = { { id = "a" } } }
                local wait = 0
                return portolan.wait("x")
                """,
            "s.lua": #"scenario("s", function() end)"#,
        ])
        defer { directory.remove() }
        let graph = try await PortolanBinary.run(["graph", "app.lua"], in: directory)
        #expect(graph.status == 1)
        #expect(graph.stderr.hasPrefix("error: app.lua:3: portolan.wait expects a number of seconds"), "\(graph.stderr)")
        let check = try await PortolanBinary.run(["check", "app.lua"], in: directory)
        #expect(check.stdout.hasPrefix("app.lua:3: error: the script failed: portolan.wait expects"), "\(check.stdout)")
        let test = try await PortolanBinary.run(["test", "--app", "app.lua", "s.lua"], in: directory)
        #expect(test.stdout.contains("app.lua:3: portolan.wait expects"), "\(test.stdout)")
        for run in [graph, check, test] {
            #expect(!(run.stdout + run.stderr).contains("portolan:"), "\(run.stdout)\(run.stderr)")
        }
    }

    /// Issue 18, finding 10: `check` read an app of any size (a 3 GiB file aborted it). Every
    /// command reads an app or a scenario file as every loader does, up to 16 MiB; a larger one is
    /// a load error naming the file and the limit. Sparse files: no disk is spent.
    @Test func everyCommandRefusesAFileOverTheScriptSizeLimit() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "s.lua": #"scenario("never reached", function() expect(1, 1) end)"#,
            "app.lua": #"portolan.app { id = "root" }"#,
        ])
        defer { directory.remove() }
        for (name, size) in [("huge.lua", Int64(3) << 30), ("over.lua", Int64(16 << 20) + 1)] {
            let path = directory.path(name)
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            try #require(truncate(path, off_t(size)) == 0)
            let runs = [
                ["check", name], ["check", "--format", "github", name], ["graph", name],
                ["test", "--app", name, "s.lua"], ["test", "--app", "app.lua", name],
            ]
            for arguments in runs {
                let run = try await PortolanBinary.run(arguments, in: directory)
                #expect(run.status == 1, "\(arguments): \(run.stdout)\(run.stderr)")
                let said = run.stdout + run.stderr
                #expect(said.contains("cannot read \(name): larger than 16 MiB"), "\(arguments): \(said)")
            }
        }
    }
}
