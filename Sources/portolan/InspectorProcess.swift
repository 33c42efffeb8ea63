import Lua
import PortolanTools
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The live inspector's process, `portolan-inspector`, which `portolan repl --inspect` starts
/// beside itself and feeds: after each REPL update, the page's whole state as a line of JSON
/// (`InspectorSnapshot`) on the process's standard input.
///
/// The REPL never waits for it. Its input is non-blocking: when the pipe is full, the newest state
/// waits for the next update, replacing any older one not yet begun (each state is whole, so none
/// is needed once a newer one exists). When the process is gone, its states are dropped; the REPL
/// routes on. It runs in a process group of its own, so that Ctrl-C in the terminal is the REPL's.
final class InspectorProcess: ReplObserver {
    /// The port `--inspect` alone uses.
    static let defaultPort: UInt16 = 7357
    static let programName = "portolan-inspector"
    /// Linux's F_SETPIPE_SZ, which Glibc's Swift overlay does not export (a GNU extension).
    private static let setPipeSize: CInt = 1031

    private struct Output {
        var snapshot = InspectorSnapshot()
        /// What remains to write of the state being written.
        var writing: [UInt8] = []
        /// The newest state, when it could not be begun yet.
        var newest: [UInt8]?
        var isGone = false
    }

    /// The page's address.
    let url: String
    private let input: CInt
    private let output = Mutex(Output())

    private init(url: String, input: CInt) {
        self.url = url
        self.input = input
    }

    deinit {
        close(input)   // its input ends: the process exits
    }

    /// How to get the server when it is missing: a build of `--product portolan` alone (as a CI
    /// job that only runs scenarios makes) leaves it out.
    static let missingProgramFix = "it is a program of its own, which a build of --product portolan alone leaves out; "
        + "build it beside portolan with swift build --product \(programName), in the same configuration "
        + "(-c release for a release build; a plain swift build builds both), "
        + "or install both with scripts/install.sh"

    /// Starts the process, listening on 127.0.0.1:`port` (0: any free port), and waits until it
    /// listens or says why it cannot (a port taken), in its own words.
    static func start(port: UInt16) throws(StartError) -> InspectorProcess {
        signal(SIGPIPE, SIG_IGN)   // a write to a process that has gone fails; it must not end the REPL
        guard let program = programPath() else {
            throw StartError(description: "cannot find \(programName), the inspector's server, beside portolan")
        }
        guard access(program, X_OK) == 0 else {
            throw StartError(description: "the inspector's server, \(program), is missing: \(missingProgramFix)")
        }
        let (input, answer) = try spawn(program, arguments: ["--port", String(port)])
        let line = firstLine(from: answer)
        close(answer)
        guard let line, line.hasPrefix("listening ") else {
            close(input)
            let reason = line.map { $0.hasPrefix("error: ") ? String($0.dropFirst(7)) : $0 }
            throw StartError(description: reason ?? "\(programName) ended before it listened")
        }
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        #if os(Linux) && !PORTOLAN_PORTABLE
        _ = fcntl(input, Self.setPipeSize, 1 << 20)   // room for a few large trees; best effort
        #endif
        return InspectorProcess(url: String(line.dropFirst("listening ".count)), input: input)
    }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    func replDidUpdate(_ update: ReplUpdate) {
        output.withLock { output in
            guard !output.isGone else { return }
            output.snapshot.apply(update)
            output.newest = Array((output.snapshot.json + "\n").utf8)
            write(&output)
        }
    }

    /// Writes what it can without waiting: the rest of the state being written, then the newest.
    private func write(_ output: inout Output) {
        while true {
            if output.writing.isEmpty {
                guard let newest = output.newest else { return }
                output.writing = newest
                output.newest = nil
            }
            let written = output.writing.withUnsafeBytes { systemWrite(input, $0.baseAddress, $0.count) }
            if written > 0 {
                output.writing.removeFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else {
                // Full (EAGAIN): the next update goes on. Anything else: the process has gone.
                if errno != EAGAIN { output.isGone = true }
                return
            }
        }
    }

    /// `portolan-inspector` in the directory of the running `portolan`.
    private static func programPath() -> String? {
        guard let executable = runningExecutable(), let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[..<slash]) + "/" + programName
    }

    /// The running program's file. Linux names it in /proc; the portable path (docs/embedding.md,
    /// "Platforms") resolves how the program was started: a path as given, a bare name through `PATH`.
    private static func runningExecutable() -> String? {
        #if os(Linux) && !PORTOLAN_PORTABLE
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        guard let started = CommandLine.arguments.first, !started.isEmpty else { return nil }
        let candidates = started.contains("/")
            ? [started]
            : (getenv("PATH").map { String(cString: $0) } ?? "").split(separator: ":").map { "\($0)/\(started)" }
        for candidate in candidates where access(candidate, X_OK) == 0 {
            guard let resolved = realpath(candidate, nil) else { continue }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return nil
        #endif
    }

    /// Starts `program` in a process group of its own, with pipes to its standard input and from
    /// its standard output: their parent ends, in that order.
    private static func spawn(_ program: String, arguments: [String]) throws(StartError) -> (CInt, CInt) {
        var toChild: [CInt] = [0, 0], fromChild: [CInt] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
            throw StartError(description: "cannot start \(programName): \(String(cString: strerror(errno)))")
        }
        // Only the child's ends reach it, through dup2; no other program the REPL starts inherits any.
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw StartError(description: "cannot start \(program): \(String(cString: strerror(status)))")
        }
        return (toChild[1], fromChild[0])
    }

    /// The first line the process writes (at most 4 KiB), or nil when it ends first.
    private static func firstLine(from descriptor: CInt) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 4096 {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
