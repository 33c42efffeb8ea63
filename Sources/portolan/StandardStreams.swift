import Lua
import PortolanShipping
import PortolanTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CLI's one way to write to standard output and standard error outside `print`: unbuffered,
/// so that prompts show at once, retried on EINTR and short writes, and after anything `print`
/// still buffers, so that output keeps its order.
enum StandardStreams {
    /// Writes `text` as it is (no newline added) to `descriptor`.
    static func write(_ text: String, to descriptor: CInt = STDOUT_FILENO) {
        fflush(nil)   // every stream: stdout is a global Swift 6 will not touch
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Writes a report to standard output, ending its last line: the one way a command prints one. A
    /// report quotes what apps, handlers and scenarios wrote, and CI logs read every line of it, so no
    /// line can give the runner a command (`CILogText`): each format names the notation its escapes
    /// are written in (a JSON string's, XML's, text's), so the report still reads as it did.
    static func report(_ text: String, as notation: CILogText.Notation = .text) {
        write(CILogText.safe(text, as: notation) + "\n")
    }

    /// Writes workflow commands the tool built itself (`--format github`), whose data their builder made
    /// safe (`CILogText.safeInsideLine`): the lines are meant to start with `::`.
    static func annotations(_ text: String) {
        write(text + "\n")
    }

    /// Writes one line to standard error: errors, and reports that must not mix with stdout's. An
    /// error may quote a script, so no line of it can give a CI runner a command (`CILogText`).
    static func errorLine(_ text: String) {
        write(CILogText.safe(text) + "\n", to: STDERR_FILENO)
    }

    /// The terminal's width in columns (80 when standard output is no terminal).
    static var terminalWidth: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}

