import Portolan
import PortolanLua
import Lua
import Synchronization

/// What one host tells the runner while it lists or runs a file's scenarios: the scenarios found,
/// whether the selected one started, finished or skipped, what it printed, and what its routes did.
///
/// Shared with the `__portolan_runner` function and the host's output, which may be called from the
/// host's executor; hence the lock.
final class ScenarioSession: Sendable {
    struct Record: Sendable {
        var found: [ScenarioRunner.Declared] = []
        var started = false
        var finished = false
        var skipReason: String?
        /// Whether the file's top level was ended after the selected scenario finished (the
        /// expect library's `stop`): the error that ended it is no failure.
        var stopped = false
        var output: [String] = []
        var outputKept = BoundedOutput()
        /// The router's events from the start of the selected scenario on.
        var journal = ScenarioJournal()
    }

    /// The index (1-based) of the scenario to run; nil to only list them.
    let selected: Int?
    /// Whether every scenario must assert all its events (`--exhaustive`), as if each called
    /// `exhaustive()`.
    let exhaustive: Bool
    private let record = Mutex(Record())
    init(selected: Int?, exhaustive: Bool = false) {
        self.selected = selected
        self.exhaustive = exhaustive
    }

    var snapshot: Record { record.withLock { $0 } }

    /// Keeps a printed line, within the scenario's BoundedOutput.
    func print(_ line: String) {
        record.withLock { record in
            if let kept = record.outputKept.admit(line) { record.output.append(kept) }
        }
    }

    /// Journals a router event, once the selected scenario has started.
    func record(_ event: RouterEvent) {
        record.withLock { record in
            if record.started, !record.finished { record.journal.record(event) }
        }
    }

    /// The runner's function that the expect library calls (see `expectLibrarySource`).
    func handle(_ arguments: [LuaValue]) -> [LuaValue] {
        let event = arguments.first?.stringValue ?? ""
        let argument = { (index: Int) in index < arguments.count ? arguments[index] : .nil }
        switch event {
        case "mode":
            return [selected.map { .integer(Int64($0)) } ?? .nil, .boolean(exhaustive)]
        case "events":
            let expected = (argument(1).arrayValue ?? []).map { $0.stringValue ?? "" }
            return [eventMismatch(expected: expected).map { .string($0) } ?? .nil]
        case "unasserted":
            return [unassertedEvents().map { .string($0) } ?? .nil]
        case "found":
            let name = ScenarioResult.bounded(name: argument(2).stringValue ?? "?")
            let mark = argument(3).stringValue.flatMap(ScenarioMark.init(rawValue:))
            record.withLock { $0.found.append(.init(name: name, mark: mark)) }
        case "start":
            record.withLock { $0.started = true }
        case "finish":
            record.withLock { $0.finished = true }
        case "stop":
            record.withLock { $0.stopped = true }
        case "skip":
            let reason = Excerpt.cut(argument(1).stringValue ?? "", toBytes: ScenarioResult.messageBytes)
            record.withLock { $0.skipReason = reason }
        default:
            break
        }
        return []
    }

    /// Why the events since the last call differ from `expected`, or nil when they do not.
    private func eventMismatch(expected: [String]) -> String? {
        switch record.withLock({ $0.journal.take() }) {
        case .failure(let overflow):
            return overflow.message
        case .success(let actual):
            guard let diff = LineDiff.lines(expected: expected, actual: actual) else { return nil }
            let counts = actual.count == expected.count ? "" : " (\(actual.count), expected \(expected.count))"
            return (["events differ\(counts); - expected, + actual:"] + diff.map { "  " + $0 }).joined(separator: "\n")
        }
    }

    /// What `exhaustive()` reports of the events left unasserted at the end, or nil for none.
    private func unassertedEvents() -> String? {
        switch record.withLock({ $0.journal.take() }) {
        case .failure(let overflow):
            return "exhaustive: " + overflow.message
        case .success(let actual):
            guard let diff = LineDiff.lines(expected: [], actual: actual) else { return nil }
            let count = "\(actual.count) event\(actual.count == 1 ? " was" : "s were")"
            return (["exhaustive: \(count) not asserted by expect_events:"] + diff.map { "  " + $0 }).joined(separator: "\n")
        }
    }
}
