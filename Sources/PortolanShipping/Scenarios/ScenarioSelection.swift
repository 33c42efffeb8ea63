/// How a scenario file marks a scenario: `scenario.only(name, fn)` or `scenario.skip(name, fn)`.
public enum ScenarioMark: String, Sendable, Equatable {
    case only, skip
}

/// Which of a run's scenarios run, decided once every file is listed: those whose name matches
/// `--filter`, and, when any is marked `scenario.only`, only those (as Mocha's and Playwright's
/// `.only`, across the whole run). A scenario marked `scenario.skip` is reported skipped without
/// running. `--forbid-only` turns each `only` into a failure and ignores the marks, so a CI run
/// never passes on the one scenario someone was working on.
///
/// A file's own entry (one that cannot be listed, or declares nothing) is always kept: its
/// failure must be seen whatever is selected.
public struct ScenarioSelection {
    /// `--filter`: a regular expression a scenario's name must contain a match of. A pull request
    /// writes it, so it is matched in linear time (`LinearRegex`), never by backtracking.
    public let filter: LinearRegex?
    /// `--filter`'s text, as the run's messages quote it.
    public let filterText: String?
    /// `--forbid-only`.
    public private(set) var forbidsOnly: Bool

    public struct InvalidFilter: Error, CustomStringConvertible {
        public var description: String
    }

    /// The reason a skipped scenario gets.
    public static let skipReason = "scenario.skip"
    /// The failure of a scenario marked `only` under `--forbid-only`.
    public static let forbiddenOnly =
        "scenario.only is forbidden by --forbid-only: remove the only before committing, so that every scenario runs"

    /// Every scenario, the marks as the files set them.
    public init() {
        filter = nil
        filterText = nil
        forbidsOnly = false
    }

    /// Every scenario, each `scenario.only` a failure: what a gate that must run them all uses.
    public static var forbiddingOnly: ScenarioSelection {
        var selection = ScenarioSelection()
        selection.forbidsOnly = true
        return selection
    }

    public init(filter: String?, forbidsOnly: Bool) throws(InvalidFilter) {
        if let filter {
            do {
                self.filter = try LinearRegex(filter)
            } catch {
                throw InvalidFilter(description: "--filter \(filter) is not a regular expression: \(error) (docs/cli.md gives the syntax)")
            }
        } else {
            self.filter = nil
        }
        filterText = filter
        self.forbidsOnly = forbidsOnly
    }

    /// The entries that run, in their order, those marked `skip` (or forbidden `only`) settled.
    public func select(_ entries: [ScenarioEntry]) -> [ScenarioEntry] {
        let focused = !forbidsOnly && entries.contains { $0.mark == .only }
        return entries.compactMap { entry in
            guard entry.index > 0 else { return entry }
            if let filter, !filter.containsMatch(in: entry.name) { return nil }
            if focused, entry.mark != .only { return nil }
            guard entry.known == nil else { return entry }
            var settled = entry
            switch entry.mark {
            case .skip?:
                settled.known = ScenarioResult(file: entry.file, name: entry.name, outcome: .skipped(Self.skipReason))
            case .only? where forbidsOnly:
                settled.known = ScenarioResult(file: entry.file, name: entry.name, outcome: .failed(Self.forbiddenOnly))
            default:
                break
            }
            return settled
        }
    }

    /// What the selection left out of `listed` to keep `kept`, and why; nil when it left out
    /// nothing. A run narrowed by `scenario.only` or `--filter` says so beside its counts, so that
    /// "1 passed, 0 failed" is not read as the whole suite.
    public func narrowing(of listed: [ScenarioEntry], kept: [ScenarioEntry]) -> ScenarioNarrowing? {
        let leftOut = listed.filter { $0.index > 0 }.count - kept.filter { $0.index > 0 }.count
        guard leftOut > 0 else { return nil }
        var reasons: [String] = []
        if !forbidsOnly, listed.contains(where: { $0.mark == .only }) { reasons.append("scenario.only") }
        if let filterText { reasons.append("--filter \(filterText)") }
        return ScenarioNarrowing(notRun: leftOut, reasons: reasons)
    }
}

/// The scenarios a run's selection left out: how many, and what narrowed it.
public struct ScenarioNarrowing: Sendable, Equatable, CustomStringConvertible {
    public let notRun: Int
    /// `scenario.only`, `--filter PATTERN`.
    public let reasons: [String]

    /// `2 scenarios not run: the run is narrowed by scenario.only`.
    public var description: String {
        "\(notRun) scenario\(notRun == 1 ? "" : "s") not run: the run is narrowed by " + reasons.joined(separator: " and ")
    }
}
