import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A detached tmux session on a private server whose socket, like every file of the session, lies
/// in the session's own temporary directory: the test touches no one else's sessions, and `kill()`
/// leaves nothing behind. A test that needs it is
/// `@Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed …"))`.
struct ReplTmux {
    /// tmux's executable; nil when it is not installed (scripts/bootstrap.sh installs it).
    static let executable: String? = {
        let candidates = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/tmux" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    let executable: String
    let scratch: TemporaryDirectory
    let session = "repl"
    /// The server's socket (`tmux -S`), under 108 bytes in any usual temporary directory.
    var socket: String { scratch.path("tmux") }

    init() throws {
        guard let executable = Self.executable else { throw TestFailure("tmux is not installed (scripts/bootstrap.sh installs it)") }
        self.executable = executable
        scratch = try TemporaryDirectory("tmux")
    }

    /// Runs a tmux command and returns its status and standard output (and errors).
    ///
    /// posix_spawn and waitpid rather than Foundation's Process, which was seen waiting forever
    /// for a `new-session` client (its server keeps the client's descriptors) and hands its
    /// children the test thread's blocked signals, so the server would not even stop on SIGTERM.
    @discardableResult
    func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        let file = scratch.path("output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let argv = [executable, "-S", socket, "-f", "/dev/null"] + arguments
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
            environment["PORTOLAN_HISTORY"] = scratch.path("history")
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
            throw TestFailure("tmux new-session failed with status \(started.status): \(started.output)")
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
                throw TestFailure("timed out; the screen shows:\n\(text)\n(tmux says: \(tmux(["list-panes", "-a"]).output))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits for the REPL to end with status 0.
    func waitForExit(timeout: TimeInterval = patience) throws {
        try waitForScreen(timeout: timeout) { $0.contains("[exited ") }
        guard screen.contains("[exited 0]") else {
            throw TestFailure("the REPL did not end with status 0; the screen shows:\n\(screen)")
        }
    }

    /// Ends the server and removes the session's directory, its socket and history with it.
    func kill() {
        tmux(["kill-server"])
        scratch.remove()
    }
}
