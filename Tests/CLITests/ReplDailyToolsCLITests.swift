import Foundation
import Testing
import TestSupport

/// The REPL's daily tools (issue 25, §3), through the real binary: completion that never offers a
/// path that then fails and that completes after `shop://`, `:graph svg` without a file, `:tree`'s
/// marks explained, `:record`'s prelude without noise and a typed `portolan.route` expected, and
/// `--inspect` without `portolan-inspector` beside the binary.
@Suite struct ReplDailyToolsCLITests {
    static let app = """
        local portolan = require "portolan"
        logged_in = false
        function login() logged_in = true end
        portolan.app {
          id = "root", kind = "switch", schemes = { "shop" },
          children = {
            { id = "tabs", kind = "switch", keep = true, children = {
              { id = "home", route = "/home", children = { { id = "item", route = "/home/items/:id" } } },
              { id = "search", route = "/search/:q" },
            } },
            { id = "welcome" },
          },
          anywhere = { { id = "settings", route = "/settings" } },
        }

        """

    @Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed (scripts/bootstrap.sh installs it)"), .timeLimit(.minutes(10)))
    func completionOffersOnlyWhatRoutesAndCompletesAfterTheAppsScheme() throws {
        let tmux = try ReplTmux()
        defer { tmux.kill() }
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app])
        defer { directory.remove() }
        try tmux.start(ReplBinary.path, arguments: ["repl", "app.lua"], in: directory.root, environment: ["NO_COLOR": "1"])
        try tmux.waitForScreen { $0.contains(":help") && $0.hasSuffix("portolan> ") }

        // settings may stand on top of a screen, never directly below the switch node tabs: the
        // only id below tabs starting with "s" is search, which Tab then inserts whole.
        tmux.literal("/root/tabs/s")
        tmux.send("Tab")
        try tmux.waitForScreen { $0.hasSuffix("portolan> /root/tabs/search") }
        tmux.send("C-u")
        // On top of the screen home, settings is offered beside home's own child.
        tmux.literal("/root/tabs/home/")
        tmux.send("Tab")
        try tmux.waitForScreen { $0.contains("/root/tabs/home/item") && $0.contains("/root/tabs/home/settings") }
        tmux.send("C-u")

        // After the app's scheme, the route patterns (the first segment stands where a host would).
        tmux.literal("shop://")
        tmux.send("Tab")
        try tmux.waitForScreen { $0.contains("shop://home") && $0.contains("shop://search/") && $0.contains("shop://settings") }
        tmux.send("C-u")
        tmux.literal("shop://se")
        tmux.send("Tab")
        tmux.literal("t")
        tmux.send("Tab")
        try tmux.waitForScreen { $0.hasSuffix("portolan> shop://settings") }
        tmux.send("Enter")
        try tmux.waitForScreen { $0.contains("  enter settings\nactive: root > tabs > home > settings\nportolan> ") }

        // :graph svg without a file refuses, saying how to write one.
        tmux.type(":graph svg")
        try tmux.waitForScreen { $0.contains("error: :graph svg writes a picture to a file, as in :graph svg tree.svg") }
        #expect(!tmux.screen.contains("<svg"))

        // :tree explains the mark of what a switch off the active path shows.
        tmux.type("/root/welcome")
        try tmux.waitForScreen { $0.hasSuffix("active: root > welcome\nportolan> ") }
        tmux.type(":tree")
        try tmux.waitForScreen {
            $0.contains("│  ├─ home ·\n") && $0.contains("(* the active path; · what a switch node off it shows when you switch back to it)")
        }
        tmux.type(":quit")
        try tmux.waitForExit()
    }

    /// Before the recording: a look (`portolan.pending()`), a variable nothing uses, the login the
    /// routes need and a variable a later line uses; then a route typed as Lua.
    @Test(.timeLimit(.minutes(10))) func theRecordingsPreludeReplaysOnlyWhatTheSessionUsed() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app])
        defer { directory.remove() }
        let session = [
            "portolan.pending()", "unused = 1", "login()", "greeting = 'hi'", "logged_in", ":record " + directory.path("recorded.lua"),
            #"portolan.route "settings""#, "print(greeting)", "portolan.active_path()", ":quit",
        ]
        let run = try ReplBinary.run(["repl", directory.path("app.lua")], input: session.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let recorded = try String(contentsOfFile: directory.path("recorded.lua"), encoding: .utf8)
        #expect(!recorded.contains("pending"), "\(recorded)")
        #expect(!recorded.contains("unused"), "\(recorded)")
        #expect(!recorded.contains("portolan.active_path() end"), "a look at the path is not replayed:\n\(recorded)")
        #expect(recorded.contains("  login()\n  greeting = 'hi'\n"), "\(recorded)")
        #expect(recorded.contains(#"  expect(portolan.route "settings", { "enter settings" })"#), "\(recorded)")
        let replay = try await PortolanBinary.run(["test", "recorded.lua"], in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)\n\(recorded)")
        #expect(replay.lastLine == "1 passed, 0 failed")
    }

    /// A binary built alone (`--product portolan`, as a CI recipe does) says how to get the server.
    @Test(.timeLimit(.minutes(10))) func inspectWithoutTheServerNamesTheBuildThatMakesIt() async throws {
        let directory = try TemporaryDirectory("cli")
        defer { directory.remove() }
        let alone = directory.path("portolan")
        // Read and written rather than copied: a copy of a file others run can fail as "text file busy".
        try Data(contentsOf: URL(fileURLWithPath: try ReplBinary.path)).write(to: URL(fileURLWithPath: alone))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: alone)
        let run = try await Self.runFreshlyWritten(alone, ["repl", "--inspect", "0"], in: directory.root)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("portolan-inspector"), "\(run.stderr)")
        #expect(run.stderr.contains("swift build --product portolan-inspector"), "\(run.stderr)")
    }

    /// Runs a program this test has just written. Another test's process, forked while the file
    /// was open for writing, holds that descriptor until it execs, and until then the kernel
    /// refuses to run the file ("text file busy"): try again, a bounded number of times.
    private static func runFreshlyWritten(
        _ program: String, _ arguments: [String], in directory: String
    ) async throws -> PortolanBinary.Run {
        for _ in 1..<200 {
            do {
                return try await PortolanBinary.run(program: program, arguments, in: directory)
            } catch let error as NSError where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        return try await PortolanBinary.run(program: program, arguments, in: directory)
    }
}
