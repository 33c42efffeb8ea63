import Foundation
import Testing

/// `portolan` and `portolan repl`, run as the built binary: scripted through a pipe, and on a
/// real terminal under tmux.
@Suite struct ReplCLITests {
    // MARK: Piped standard input

    @Test(.timeLimit(.minutes(3))) func pipedSessionPrintsOnlyWhatTheSessionSays() throws {
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

    @Test(.timeLimit(.minutes(3))) func replSubcommandLoadsAnAppAndEndsAtEndOfInput() throws {
        let app = try ReplTemporaryFile("""
            portolan.app { id = "root", kind = "switch", active = "a", children = { { id = "a" }, { id = "b" } } }
            """)
        // The last line has no newline: it still counts.
        let run = try ReplBinary.run(["repl", app.path], input: ":tree\n/root/b\nportolan.active_path()")
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

    @Test(.timeLimit(.minutes(3))) func anAppThatDoesNotLoadExitsWithItsError() throws {
        let app = try ReplTemporaryFile("portolan.app {\n  id = \"root\",\n")
        let run = try ReplBinary.run(["repl", app.path], input: "1\n")
        #expect(run.status == 1)
        #expect(run.output == "")
        #expect(run.error.hasPrefix("error: \(app.path):3: "))
        #expect(run.error.hasSuffix(" near <eof>\n"))
        let missing = try ReplBinary.run(["repl", app.path + ".missing"], input: "")
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: "))
    }

    /// Issue 10, item 7: input that ends inside a chunk used to exit 0 without a word.
    @Test(.timeLimit(.minutes(3))) func inputThatEndsInsideAChunkIsASyntaxError() throws {
        let run = try ReplBinary.run([], input: "print(1)\nx = [[abc\n")
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("1\nerror: stdin:1: unfinished long string"))
        #expect(run.output.hasSuffix("(the input ended before the chunk did)\n"))
    }

    @Test(.timeLimit(.minutes(3))) func ctrlCStopsARunningChunkAndEndsAnIdlePipedSession() throws {
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

    @Test(.timeLimit(.minutes(3))) func terminalSessionUnderTmux() throws {
        guard let tmux = ReplTmux() else {
            print("ReplCLITests: tmux is not installed (scripts/bootstrap.sh installs it); skipping the terminal test")
            return
        }
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
    @Test(.timeLimit(.minutes(3))) func everythingAtOnceUnderTmuxThenTheRecordingReplays() async throws {
        guard let tmux = ReplTmux() else {
            print("ReplCLITests: tmux is not installed (scripts/bootstrap.sh installs it); skipping the terminal test")
            return
        }
        defer { tmux.kill() }
        let app = { (extra: String) in
            """
            portolan.app { id = "root", kind = "switch", active = "home", children = {
              { id = "home", route = "/home", children = { { id = "item", route = "/items/:id<int>" } } },
              { id = "old", route = "/old" },\(extra)
            } }

            """
        }
        let directory = try PortolanBinary.directory(with: ["app.lua": app("")])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try tmux.start(ReplBinary.path, arguments: ["repl", "app.lua"], in: directory, environment: ["NO_COLOR": "1"])
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
        // (Each Ctrl-C waits for the chunk to show it runs: one pressed before the REPL has read
        // the line, as happens under load, would be a Ctrl-C at the prompt.)
        tmux.type(#"print("looping") while true do end"#)
        try tmux.waitForScreen { $0.hasSuffix("\nlooping") }
        tmux.send("C-c")
        try tmux.waitForScreen { $0.hasSuffix("error: stdin:1: interrupted\nportolan> ") }

        // And a pattern bomb, whose matching runs in C (issue 10, item 3).
        tmux.type(#"print("matching") local _ = ("a"):rep(400):find(".-.-.-b")"#)
        try tmux.waitForScreen { $0.hasSuffix("\nmatching") }
        tmux.send("C-c")
        try tmux.waitForScreen { $0.hasSuffix("error: stdin:1: interrupted\nportolan> ") }

        // A URL route.
        tmux.type("/old")
        try tmux.waitForScreen {
            $0.hasSuffix("matched /old (old)\n  leave item {id=7}\n  switch root -> old\nactive: root > old\nportolan> ")
        }

        // The app file changes; :reload runs it again and its new node is there.
        try app("\n  { id = \"extra\", route = \"/extra\" },").write(toFile: directory + "/app.lua", atomically: true, encoding: .utf8)
        tmux.type(":reload")
        try tmux.waitForScreen { $0.hasSuffix("portolan> :reload\nreloaded\nactive: root > old\nportolan> ") }
        tmux.type("/extra")
        try tmux.waitForScreen { $0.hasSuffix("matched /extra (extra)\n  switch root -> extra\nactive: root > extra\nportolan> ") }

        tmux.type(":quit")
        try tmux.waitForScreen { $0.contains("recorded 3 routes to recorded.lua") }
        try tmux.waitForExit()

        // The recording replays as written, with --app and without it.
        let recorded = try String(contentsOfFile: directory + "/recorded.lua", encoding: .utf8)
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

// MARK: Helpers

/// The `portolan` binary built next to the test bundle.
enum ReplBinary {
    /// The binary the shared finder located (PortolanBinary.swift: next to the test bundle, or
    /// `PORTOLAN_BINARY`).
    static var path: String {
        get throws {
            guard let path = PortolanBinary.path else {
                throw ReplTestFailure("the portolan binary was not found next to the test bundle; build it or set PORTOLAN_BINARY")
            }
            return path
        }
    }

    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs the binary to its end with `input` on a pipe.
    static func run(_ arguments: [String], input: String) throws -> Run {
        let process = try start(arguments)
        process.send(input)
        process.closeInput()
        let status = process.wait()
        return Run(status: status, output: process.output, error: process.error)
    }

    static func start(_ arguments: [String]) throws -> Running {
        try Running(path: try path, arguments: arguments)
    }

    /// A running binary whose output is collected as it comes.
    final class Running: @unchecked Sendable {
        // @unchecked: the collected text is guarded by `lock`; the rest is set up once.
        private let process = Process()
        private let input = Pipe()
        private let lock = NSLock()
        private var collectedOutput = Data()
        private var collectedError = Data()
        private let group = DispatchGroup()

        init(path: String, arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardInput = input
            let output = Pipe(), error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            collect(output.fileHandleForReading, isError: false)
            collect(error.fileHandleForReading, isError: true)
        }

        private func collect(_ handle: FileHandle, isError: Bool) {
            group.enter()
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.withLock {
                        if isError { collectedError.append(data) } else { collectedOutput.append(data) }
                    }
                }
                group.leave()
            }
        }

        var output: String { lock.withLock { String(decoding: collectedOutput, as: UTF8.self) } }
        var error: String { lock.withLock { String(decoding: collectedError, as: UTF8.self) } }

        func send(_ text: String) {
            input.fileHandleForWriting.write(Data(text.utf8))
        }

        func closeInput() {
            try? input.fileHandleForWriting.close()
        }

        func interrupt() {
            process.interrupt()
        }

        /// Waits for the process to end and its output to be read; returns its exit status.
        func wait() -> Int32 {
            process.waitUntilExit()
            group.wait()
            return process.terminationStatus
        }

        func waitForOutput(timeout: TimeInterval = ReplTmux.patience, _ condition: (String) -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(output) {
                guard Date() < deadline else {
                    process.terminate()
                    throw ReplTestFailure("timed out; output so far:\n\(output)\nerrors:\n\(error)")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }
}

/// A detached tmux session on a private server, so the test touches no one else's sessions.
struct ReplTmux {
    let executable: String
    let socket = "portolan-repl-test-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
    let session = "repl"

    init?() {
        let candidates = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/tmux" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        executable = found
    }

    /// Runs a tmux command and returns its status and standard output (and errors).
    ///
    /// posix_spawn and waitpid rather than Foundation's Process, which was seen waiting forever
    /// for a `new-session` client (its server keeps the client's descriptors) and hands its
    /// children the test thread's blocked signals, so the server would not even stop on SIGTERM.
    @discardableResult
    func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let argv = [executable, "-L", socket, "-f", "/dev/null"] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var cStrings = argv.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        cStrings.append(nil)
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, cStrings, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : -1, output)
    }

    /// Starts `binary` in a detached session; when it ends, the pane shows `[exited STATUS]`.
    /// History goes to a file of the test's (`PORTOLAN_HISTORY`), never to the user's.
    func start(
        _ binary: String, arguments: [String] = [], in directory: String? = nil, environment: [String: String] = [:]
    ) throws {
        var environment = environment
        if environment["PORTOLAN_HISTORY"] == nil {
            environment["PORTOLAN_HISTORY"] = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-history").path
        }
        let quoted = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted($0.value))" }
        let command = "env " + (assignments + ([binary] + arguments).map(quoted)).joined(separator: " ")
        // The shell catches SIGINT (a no-op trap, reset to the default in the REPL), or the
        // test's Ctrl-C would end it, and the pane with it, once the REPL has exited.
        let script = "trap : INT; " + (directory.map { "cd \(quoted($0)) && " } ?? "") + command
            + #"; echo "[exited $?]"; sleep 60"#
        let started = tmux([
            "new-session", "-d", "-s", session, "-x", "100", "-y", "50", "--", "/bin/sh", "-c", script,
        ])
        guard started.status == 0 else {
            throw ReplTestFailure("tmux new-session failed with status \(started.status): \(started.output)")
        }
    }

    /// Types a line and presses Enter (text sent literally, so `end` is not the End key).
    func type(_ line: String) {
        literal(line)
        send("Enter")
    }

    func literal(_ text: String) {
        tmux(["send-keys", "-t", session, "-l", text])
    }

    func send(_ key: String) {
        tmux(["send-keys", "-t", session, key])
    }

    /// The visible screen, trailing blank lines and spaces removed.
    var screen: String {
        let lines = tmux(["capture-pane", "-p", "-t", session]).output.split(separator: "\n", omittingEmptySubsequences: false)
        var trimmed = lines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
        while trimmed.last == "" { trimmed.removeLast() }
        return trimmed.joined(separator: "\n")
    }

    /// How long a wait for the program may take: long, because it only takes that long on a
    /// machine so busy that a debug binary needs seconds to start (the test then still passes);
    /// on an idle one each wait ends within milliseconds.
    static let patience: TimeInterval = 60

    /// Waits until the screen satisfies `condition`. Prompts end in a space that `screen` trims,
    /// so conditions may match `portolan> ` at the end either way.
    func waitForScreen(timeout: TimeInterval = patience, _ condition: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let text = screen
            if condition(text) || condition(text + " ") { return }
            guard Date() < deadline else {
                throw ReplTestFailure("timed out; the screen shows:\n\(text)\n(tmux says: \(tmux(["list-panes", "-a"]).output))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits for the REPL to end with status 0.
    func waitForExit(timeout: TimeInterval = patience) throws {
        try waitForScreen(timeout: timeout) { $0.contains("[exited ") }
        guard screen.contains("[exited 0]") else {
            throw ReplTestFailure("the REPL did not end with status 0; the screen shows:\n\(screen)")
        }
    }

    func kill() {
        tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-history").path)
        // The server leaves its socket behind when it is killed; best effort.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    }
}

/// A file that is removed when the test ends.
final class ReplTemporaryFile {
    let path: String

    init(_ contents: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("portolan-\(UUID().uuidString).lua").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

struct ReplTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
