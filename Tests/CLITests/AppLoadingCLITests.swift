import Testing

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
        let directory = try PortolanBinary.directory(with: Self.files)
        // Run from the package root: the app's directory, not the working one, holds its modules.
        let run = try await PortolanBinary.run(["graph", directory + "/app.lua"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("about  /about"))
    }

    @Test func testCheckAndReplFindThemToo() async throws {
        let directory = try PortolanBinary.directory(with: Self.files)
        let test = try await PortolanBinary.run(["test", "--app", directory + "/app.lua", directory + "/s.lua"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        let check = try await PortolanBinary.run(["check", directory + "/app.lua"])
        #expect(!check.stdout.contains("not found"), "\(check.stdout)")
    }
}
