import CEditLine
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Lua
import PortolanLua
import PortolanTools
import Synchronization

/// Line editing, history and Tab completion on a terminal, through libedit's own API.
///
/// - Lines are read on a serial dispatch queue of their own, never on a thread of Swift's
///   cooperative pool, so completion may wait there for the (async) session.
/// - Ctrl-C while editing is a key, not a signal: the editing mode has `-isig`, and ^C is bound
///   to a function that abandons the line. While a chunk runs, the terminal is back in its own
///   mode and Ctrl-C is SIGINT, which stops the chunk.
/// - What other tasks print while a line is being edited (`--watch` reloads) goes through the
///   editor: the line is cleared, the text printed, and the prompt and line drawn again.
/// - History: `$PORTOLAN_HISTORY`, or `~/.portolan_history`; empty `PORTOLAN_HISTORY` keeps none.
///   At most ``historySize`` lines, saved after every line.
final class LineEditor: @unchecked Sendable {
    // @unchecked: the EditLine state is touched only from `queue` (reads and its callbacks);
    // what other threads hand over goes through `state` and the wake pipe.

    enum Event: Sendable {
        case line(String)
        case interrupted
        case end
    }

    static let historySize: Int32 = 1_000
    /// The character that brackets escape codes in a prompt.
    static let promptLiteral: Character = "\u{1}"

    private let editor: OpaquePointer
    private let history: OpaquePointer?
    private let historyFile: String?
    private let queue = DispatchQueue(label: "portolan.line-editor")
    private let complete: @Sendable (String) -> ReplCompletion
    private var promptBuffer: UnsafeMutablePointer<CChar>?
    private var interrupted = false
    private let state = Mutex<(editing: Bool, waiting: [String])>((false, []))
    private let wake: (read: Int32, write: Int32)

    /// nil when libedit cannot run here (then the caller reads plain lines).
    init?(complete: @escaping @Sendable (String) -> ReplCompletion, environment: [String: String]) {
        guard let editor = portolan_el_open("portolan") else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            el_end(editor)
            return nil
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        self.editor = editor
        self.wake = (pipeEnds[0], pipeEnds[1])
        self.complete = complete
        if let file = environment["PORTOLAN_HISTORY"] {
            historyFile = file.isEmpty ? nil : file
        } else {
            historyFile = environment["HOME"].map { $0 + "/.portolan_history" }
        }
        history = portolan_history_open(Self.historySize)
        if let history {
            if let historyFile { _ = portolan_history_load(history, historyFile) }
            _ = portolan_el_set_history(editor, history)
        }
        _ = portolan_el_set_clientdata(editor, Unmanaged.passUnretained(self).toOpaque())
        _ = portolan_el_set_prompt(editor, { editor in
            LineEditor.owner(of: editor)?.promptBuffer
        }, CChar(UInt8(ascii: "\u{1}")))
        _ = portolan_el_set_editor(editor, "emacs")
        _ = portolan_el_setty(editor, "-isig")
        _ = portolan_el_set_getc(editor, { editor, character in
            guard let editor, let character, let owner = LineEditor.owner(of: editor) else { return -1 }
            return owner.readCharacter(into: character)
        })
        _ = portolan_el_add_function(editor, "portolan-interrupt", "abandon the line (Ctrl-C)", { editor, _ in
            guard let editor else { return UInt8(CC_ERROR) }
            LineEditor.owner(of: editor)?.interrupted = true
            return UInt8(CC_EOF)
        })
        _ = portolan_el_add_function(editor, "portolan-complete", "complete Lua names, ids, URLs and commands", { editor, _ in
            guard let editor, let owner = LineEditor.owner(of: editor) else { return UInt8(CC_ERROR) }
            return owner.completeLine()
        })
        _ = portolan_el_bind(editor, "^C", "portolan-interrupt")
        _ = portolan_el_bind(editor, "^I", "portolan-complete")
        // The user's ~/.editrc (vi mode, bindings) last, so that it wins.
        _ = el_source(editor, nil)
    }

    deinit {
        el_end(editor)
        if let history { history_end(history) }
        free(promptBuffer)
        close(wake.read)
        close(wake.write)
    }

    private static func owner(of editor: OpaquePointer?) -> LineEditor? {
        guard let editor, let data = portolan_el_clientdata(editor) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: Reading

    /// Reads one line with `prompt` (escape codes bracketed by ``promptLiteral``).
    func read(prompt: String) async -> Event {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.readNow(prompt: prompt)) }
        }
    }

    private func readNow(prompt: String) -> Event {
        free(promptBuffer)
        promptBuffer = strdup(prompt)
        interrupted = false
        state.withLock { $0.editing = true }
        var count: Int32 = 0
        let text = el_gets(editor, &count)
        let waiting = state.withLock { state in
            state.editing = false
            defer { state.waiting = [] }
            return state.waiting
        }
        if interrupted {
            StandardStreams.write("^C\n")
            flush(waiting)
            return .interrupted
        }
        flush(waiting)
        guard let text, count > 0 else { return .end }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        remember(line)
        return .line(line)
    }

    private func remember(_ line: String) {
        guard let history, !line.allSatisfy(\.isWhitespace) else { return }
        _ = portolan_history_enter(history, line)
        if let historyFile { _ = portolan_history_save(history, historyFile) }
    }

    /// libedit's character reader: standard input, and the wake pipe for text to print.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        var bytes: [UInt8] = []
        while true {
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if descriptors[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while systemRead(wake.read, &drain, drain.count) > 0 {}
                printWaiting()
            }
            guard descriptors[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = systemRead(STDIN_FILENO, &byte, 1)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -1
            }
            if count == 0 { return 0 }
            bytes.append(byte)
            // UTF-8: wait for the rest of a multi-byte character.
            let expected = Self.utf8Length(bytes[0])
            if bytes.count < expected { continue }
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? 0xFFFD
            character.pointee = wchar_t(bitPattern: scalar)
            return 1
        }
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: return 4
        case 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        default: return 1
        }
    }

    // MARK: Printing while a line is edited

    /// Prints `text` now, or, while a line is being edited, above it (the line is drawn again).
    /// Returns false when nothing is being edited: the caller prints as usual.
    func printAbove(_ text: String) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard state.editing else { return false }
            state.waiting.append(text)
            return true
        }
        if queued {
            var byte: UInt8 = 1
            _ = systemWrite(wake.write, &byte, 1)
        }
        return queued
    }

    /// On the editor's queue, inside `el_gets`.
    private func printWaiting() {
        let waiting = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        guard !waiting.isEmpty else { return }
        // Clear the line being edited, print, and let libedit draw prompt and line again.
        StandardStreams.write("\r\u{1B}[K" + waiting.map { $0 + "\n" }.joined())
        _ = portolan_el_refresh(editor)
    }

    private func flush(_ waiting: [String]) {
        if !waiting.isEmpty { StandardStreams.write(waiting.map { $0 + "\n" }.joined()) }
    }

    // MARK: Completion

    private func completeLine() -> UInt8 {
        guard let info = el_line(editor)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_ERROR)
        }
        let length = buffer.distance(to: cursor)
        let prefix = buffer.withMemoryRebound(to: UInt8.self, capacity: max(length, 1)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        let completion = complete(prefix)
        guard !completion.candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let target = completion.candidates.count == 1 ? completion.candidates[0] : completion.commonPrefix
        if target != completion.word, target.hasPrefix(completion.word) || completion.candidates.count == 1 {
            el_deletestr(editor, Int32(completion.word.unicodeScalars.count))
            _ = el_insertstr(editor, target)
            return UInt8(CC_REFRESH)
        }
        StandardStreams.write("\n" + Self.columns(completion.candidates, width: StandardStreams.terminalWidth) + "\n")
        return UInt8(CC_REDISPLAY)
    }

    /// Candidates in columns, as shells list them; at most 200.
    static func columns(_ items: [String], width: Int) -> String {
        let shown = Array(items.prefix(200))
        let cell = (shown.map(\.count).max() ?? 0) + 2
        let perRow = max(1, width / max(cell, 1))
        var rows: [String] = []
        var index = 0
        while index < shown.count {
            let row = shown[index..<min(index + perRow, shown.count)]
            rows.append(row.map { $0 + String(repeating: " ", count: cell - $0.count) }.joined()
                .replTrimmingTrailingSpaces())
            index += perRow
        }
        if items.count > shown.count { rows.append("… and \(items.count - shown.count) more") }
        return rows.joined(separator: "\n")
    }
}

/// Unbuffered writes to a terminal, and its width.
extension String {
    fileprivate func replTrimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
