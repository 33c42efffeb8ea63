import PortolanLua
import Lua
import Synchronization

/// What one host tells the runner while it lists or runs a file's scenarios: the scenarios found,
/// whether the selected one started, finished or skipped, and what it printed.
///
/// Shared with the `__portolan_runner` function and the host's output, which may be called from the
/// host's executor; hence the lock.
final class ScenarioSession: Sendable {
    struct Record: Sendable {
        var found: [String] = []
        var started = false
        var finished = false
        var skipReason: String?
        var output: [String] = []
        var outputBytes = 0
        var outputCut = false
    }

    /// The index (1-based) of the scenario to run; nil to only list them.
    let selected: Int?
    private let record = Mutex(Record())
    /// Lines kept per scenario, bytes per line and bytes in all: a chatty loop, or one huge string
    /// printed again and again, must not make the runner hold what the Lua state could not.
    static let outputLimit = 2_000
    static let lineByteLimit = 4_096
    static let outputByteLimit = 1 << 20

    init(selected: Int?) {
        self.selected = selected
    }

    var snapshot: Record { record.withLock { $0 } }

    func print(_ line: String) {
        let kept = Self.bounded(line)
        record.withLock { record in
            guard !record.outputCut else { return }
            if record.output.count >= Self.outputLimit {
                record.output.append("… (output cut after \(Self.outputLimit) lines)")
                record.outputCut = true
            } else if record.outputBytes + kept.utf8.count > Self.outputByteLimit {
                record.output.append("… (output cut after \(Self.outputByteLimit >> 20) MiB)")
                record.outputCut = true
            } else {
                record.output.append(kept)
                record.outputBytes += kept.utf8.count
            }
        }
    }

    /// A line cut to `lineByteLimit` bytes (at a character boundary), marked when it was.
    private static func bounded(_ line: String) -> String {
        guard line.utf8.count > lineByteLimit else { return line }
        var cut = line.utf8.prefix(lineByteLimit)
        while !cut.isEmpty, String(cut) == nil { cut = cut.dropLast() }
        return (String(cut) ?? "") + "… (line cut at \(lineByteLimit) bytes of \(line.utf8.count))"
    }

    /// The runner's function that the expect library calls (see `expectLibrarySource`).
    func handle(_ arguments: [LuaValue]) -> [LuaValue] {
        let event = arguments.first?.stringValue ?? ""
        let argument = { (index: Int) in index < arguments.count ? arguments[index] : .nil }
        switch event {
        case "mode":
            return [selected.map { .integer(Int64($0)) } ?? .nil]
        case "found":
            record.withLock { $0.found.append(argument(2).stringValue ?? "?") }
        case "start":
            record.withLock { $0.started = true }
        case "finish":
            record.withLock { $0.finished = true }
        case "skip":
            record.withLock { $0.skipReason = argument(1).stringValue ?? "" }
        default:
            break
        }
        return []
    }
}
