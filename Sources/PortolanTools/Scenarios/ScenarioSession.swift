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
        var outputKept = BoundedOutput()
    }

    /// The index (1-based) of the scenario to run; nil to only list them.
    let selected: Int?
    private let record = Mutex(Record())
    init(selected: Int?) {
        self.selected = selected
    }

    var snapshot: Record { record.withLock { $0 } }

    /// Keeps a printed line, within the scenario's BoundedOutput.
    func print(_ line: String) {
        record.withLock { record in
            if let kept = record.outputKept.admit(line) { record.output.append(kept) }
        }
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
