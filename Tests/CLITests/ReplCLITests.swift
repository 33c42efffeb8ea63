import Foundation
import Testing
import TestSupport

/// `portolan` and `portolan repl`, run as the built binary: scripted through a pipe, and on a
/// real terminal under tmux.
@Suite struct ReplCLITests {
    // MARK: Piped standard input

    @Test(.timeLimit(.minutes(10))) func pipedSessionPrintsOnlyWhatTheSessionSays() throws {
        let run = try ReplBinary.run([], input: """
            1 + 1, "two"
            function double(x)
              return x * 2
            end
            double(21)
            error("boom")
            /root/onboarding/onboarding_login
            :plan /root/onboarding
            /root/nowhere
            login()
            myapp://movie/42?ref=push
            /nowhere
            :quit
            print("not reached")

            """)
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(run.output == """
            2\t"two"
            42
            error: stdin:1: boom
            push Login  [enter onboarding_login]
              enter onboarding_login
            active: root > onboarding > onboarding_login
              leave onboarding_login
            (plan only: nothing ran, the tree is unchanged)
            active: root > onboarding > onboarding_login
            failed: unreachable: no node 'nowhere' is declared
            active: root > onboarding > onboarding_login
            matched myapp://movie/:id<int> (wishlist_movie)
            pop Login  [leave onboarding_login]
            replace the window's root with dashboard  [switch root -> dashboard]
            show MovieDetail 42 in wishlist  [enter wishlist_movie {id=42}]
              leave onboarding_login
              switch root -> dashboard
              enter wishlist_movie {id=42}
            active: root > dashboard > wishlist > wishlist_movie {id=42}
            failed: unreachable: no route matches '/nowhere'
            active: root > dashboard > wishlist > wishlist_movie {id=42}

            """)
    }

    @Test(.timeLimit(.minutes(10))) func replSubcommandLoadsAnAppAndEndsAtEndOfInput() throws {
        let directory = try TemporaryDirectory("repl", files: ["app.lua": """
            portolan.app { id = "root", kind = "switch", active = "a", children = { { id = "a" }, { id = "b" } } }
            """])
        defer { directory.remove() }
        let app = directory.path("app.lua")
        // The last line has no newline: it still counts.
        let run = try ReplBinary.run(["repl", app], input: ":tree\n/root/b\nportolan.active_path()")
        #expect(run.status == 0)
        #expect(run.output == """
            root [switch] *
            ├─ a *
            └─ b
              switch root -> b
            active: root > b
            { "root", "b" }

            """)
    }

    @Test(.timeLimit(.minutes(10))) func anAppThatDoesNotLoadExitsWithItsError() throws {
        let directory = try TemporaryDirectory("repl", files: ["app.lua": "portolan.app {\n  id = \"root\",\n"])
        defer { directory.remove() }
        let app = directory.path("app.lua")
        let run = try ReplBinary.run(["repl", app], input: "1\n")
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(run.error.hasPrefix("error: \(app):3: "))
        #expect(run.error.hasSuffix(" near <eof>\n"))
        let missing = try ReplBinary.run(["repl", app + ".missing"], input: "")
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: "))
    }

    /// Issue 10, item 7: input that ends inside a chunk used to exit 0 without a word.
    @Test(.timeLimit(.minutes(10))) func inputThatEndsInsideAChunkIsASyntaxError() throws {
        let run = try ReplBinary.run([], input: "print(1)\nx = [[abc\n")
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("1\nerror: stdin:1: unfinished long string"))
        #expect(run.output.hasSuffix("(the input ended before the chunk did)\n"))
    }

    @Test(.timeLimit(.minutes(10))) func ctrlCStopsARunningChunkAndEndsAnIdlePipedSession() throws {
        let process = try ReplBinary.start([])
        // One line prints, then loops: once "looping" shows, the chunk is running.
        process.send("print('looping') while true do end\n")
        try process.waitForOutput { $0.contains("looping\n") }
        process.interrupt()
        try process.waitForOutput { $0.contains("interrupted\n") }
        process.send("2 + 2\n")
        try process.waitForOutput { $0.contains("\n4\n") }
        // Waiting for input from a pipe, Ctrl-C ends the process, as lua.c does outside a chunk.
        process.interrupt()
        let status = process.wait()
        #expect(process.output == "looping\nerror: stdin:1: interrupted\n4\n")
        #expect(status == 130)
    }

    // MARK: A real terminal

    @Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed (scripts/bootstrap.sh installs it)"), .timeLimit(.minutes(10)))
    func terminalSessionUnderTmux() throws {
        let tmux = try ReplTmux()
        defer { tmux.kill() }
        try tmux.start(ReplBinary.path)
        try tmux.waitForScreen { $0.contains(":help") && $0.hasSuffix("portolan> ") }

        tmux.type("6 * 7")
        try tmux.waitForScreen { $0.contains("portolan> 6 * 7\n42\nportolan> ") }

        tmux.type("/root/onboarding/onboarding_login")
        try tmux.waitForScreen {
            $0.contains("  enter onboarding_login\nactive: root > onboarding > onboarding_login\nportolan> ")
        }

        // A chunk over lines, with the continuation prompt.
        // Each line waits for its prompt: keys typed ahead, between two reads, are echoed twice
        // (once by the terminal, once by the line editor), as they would be for a person.
        tmux.type("function spin()")
        try tmux.waitForScreen { $0.hasSuffix("...> ") }
        tmux.type("while true do end")
        try tmux.waitForScreen { $0.hasSuffix("...> while true do end\n...> ") }
        tmux.type("end")
        try tmux.waitForScreen { $0.hasSuffix("...> end\nportolan> ") }
        // Ctrl-C once the chunk has shown it runs: one pressed before the REPL has read the line
        // (seen under load) is a Ctrl-C at the prompt, not an interruption.
        tmux.type(#"print("spinning") spin()"#)
        try tmux.waitForScreen { $0.hasSuffix("\nspinning") }
        tmux.send("C-c")
        try tmux.waitForScreen { $0.contains("error: stdin:2: interrupted\nportolan> ") }

        // Ctrl-C at a prompt drops the line and any pending chunk.
        tmux.type("if true then")
        try tmux.waitForScreen { $0.hasSuffix("...> ") }
        tmux.literal("half a line")
        tmux.send("C-c")
        try tmux.waitForScreen { $0.hasSuffix("^C\nportolan> ") }
        tmux.type("1 + 1")
        try tmux.waitForScreen { $0.hasSuffix("portolan> 1 + 1\n2\nportolan> ") }

        tmux.type(":quit")
        try tmux.waitForExit()
    }
}

extension ReplCLITests {
    /// The issue's "done when": completion, a multi-line function, an error, Ctrl-C on an endless
    /// loop and on a pattern bomb, a URL route, `:record`, and `:reload` after the app file changed, on a real terminal;
    /// then the recorded file passes under `portolan test`.
    @Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed (scripts/bootstrap.sh installs it)"), .timeLimit(.minutes(10)))
    func everythingAtOnceUnderTmuxThenTheRecordingReplays() async throws {
        let tmux = try ReplTmux()
        defer { tmux.kill() }
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.terminalApp()])
        defer { directory.remove() }
        try tmux.start(ReplBinary.path, arguments: ["repl", "app.lua"], in: directory.root, environment: ["NO_COLOR": "1"])
        try tmux.waitForScreen { $0.contains(":help") && $0.hasSuffix("portolan> ") }

        tmux.type(":record recorded.lua")
        try tmux.waitForScreen { $0.contains("recording to recorded.lua") && $0.hasSuffix("portolan> ") }

        // Completion: Tab completes a field of the portolan table.
        tmux.literal("portolan.ro")
        tmux.send("Tab")
        try tmux.waitForScreen { $0.hasSuffix("portolan> portolan.route") }
        tmux.type(#" "/items/7""#)
        try tmux.waitForScreen { $0.contains(#"portolan> portolan.route "/items/7""# + "\n" + #"{ "enter item {id=7}" }"#) }

        // A function over several lines.
        tmux.type("function twice(x)")
        try tmux.waitForScreen { $0.hasSuffix("...> ") }
        tmux.type("  return x * 2")
        try tmux.waitForScreen { $0.hasSuffix("...>   return x * 2\n...> ") }
        tmux.type("end")
        try tmux.waitForScreen { $0.hasSuffix("...> end\nportolan> ") }
        tmux.type("twice(21)")
        try tmux.waitForScreen { $0.hasSuffix("portolan> twice(21)\n42\nportolan> ") }

        // An error, and the session goes on.
        tmux.type(#"error("boom")"#)
        try tmux.waitForScreen { $0.hasSuffix("error: stdin:1: boom\nportolan> ") }

        // Ctrl-C stops an endless loop.
        try Self.interrupt(#"print("looping") while true do end"#, once: "looping", in: tmux)

        // And a pattern bomb, whose matching runs in C (issue 10, item 3).
        try Self.interrupt(#"print("matching") local _ = ("a"):rep(400):find(".-.-.-b")"#, once: "matching", in: tmux)

        // A URL route.
        tmux.type("/old")
        try tmux.waitForScreen {
            $0.hasSuffix("matched /old (old)\n  leave item {id=7}\n  switch root -> old\nactive: root > old\nportolan> ")
        }

        // The app file changes; :reload runs it again and its new node is there.
        try directory.write("app.lua", Self.terminalApp(extra: "\n  { id = \"extra\", route = \"/extra\" },"))
        tmux.type(":reload")
        try tmux.waitForScreen { $0.hasSuffix("portolan> :reload\nreloaded\nactive: root > old\nportolan> ") }
        tmux.type("/extra")
        try tmux.waitForScreen { $0.hasSuffix("matched /extra (extra)\n  switch root -> extra\nactive: root > extra\nportolan> ") }

        tmux.type(":quit")
        try tmux.waitForScreen { $0.contains("recorded 3 routes to recorded.lua") }
        try tmux.waitForExit()

        try await Self.expectTheRecordingReplays(in: directory)
    }

    /// The app of the terminal session, with `extra` nodes once its file changes.
    private static func terminalApp(extra: String = "") -> String {
        """
        portolan.app { id = "root", kind = "switch", active = "home", children = {
          { id = "home", route = "/home", children = { { id = "item", route = "/items/:id<int>" } } },
          { id = "old", route = "/old" },\(extra)
        } }

        """
    }

    /// Types `chunk`, waits until it prints `mark` (a Ctrl-C pressed before the REPL has read the
    /// line, as happens under load, would be a Ctrl-C at the prompt), then stops it with Ctrl-C.
    private static func interrupt(_ chunk: String, once mark: String, in tmux: ReplTmux) throws {
        tmux.type(chunk)
        try tmux.waitForScreen { $0.hasSuffix("\n" + mark) }
        tmux.send("C-c")
        try tmux.waitForScreen { $0.hasSuffix("error: stdin:1: interrupted\nportolan> ") }
    }

    /// The recording replays as written, with --app and without it.
    private static func expectTheRecordingReplays(in directory: TemporaryDirectory) async throws {
        let recorded = try String(contentsOfFile: directory.path("recorded.lua"), encoding: .utf8)
        #expect(recorded.contains("-- Run with: portolan test --app app.lua recorded.lua"))
        #expect(!recorded.contains("while true"))
        #expect(!recorded.contains(".-.-.-b"))
        for arguments in [["test", "--app", "app.lua", "recorded.lua"], ["test", "recorded.lua"]] {
            let run = try await PortolanBinary.run(arguments, in: directory)
            #expect(run.status == 0, "\(arguments): \(run.stdout)\(run.stderr)\n\(recorded)")
            #expect(run.lastLine == "1 passed, 0 failed")
        }
    }
}
