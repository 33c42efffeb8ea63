import PortolanLua

/// What happened to one scenario, or to a scenario file that could not be listed.
public struct ScenarioResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case passed
        /// The message names the cause, with its file:line when Lua gave one.
        case failed(String)
        /// The reason given to `skip`.
        case skipped(String)
    }

    /// The scenario file, as given to the runner.
    public var file: String
    /// The scenario's name; for a file that failed as a whole, ``ScenarioResult/fileFailureName``.
    public var name: String
    public var outcome: Outcome
    /// What the scenario printed; reporters show it for failures only.
    public var output: [String]
    /// The routes the scenario ran, numbered, each with its destination and how it ended
    /// (`2. root > a: failed denied: not logged in`); reporters show them for failures only.
    public var routes: [String]
    public var duration: Duration
    /// What the scenario exercised of the app's graph, when the runner measured coverage
    /// (`Options.coverage`) and the app loaded; nil otherwise.
    public var coverage: ScenarioCoverage?

    /// The name of the one entry a file gets when its scenarios cannot be listed.
    public static let fileFailureName = "(file)"

    public init(
        file: String, name: String, outcome: Outcome, output: [String] = [], routes: [String] = [],
        duration: Duration = .zero, coverage: ScenarioCoverage? = nil
    ) {
        self.file = file
        self.name = name
        self.outcome = outcome
        self.output = output
        self.routes = routes
        self.duration = duration
        self.coverage = coverage
    }

    public var isFailure: Bool {
        if case .failed = outcome { return true }
        return false
    }

    public var isSkipped: Bool {
        if case .skipped = outcome { return true }
        return false
    }

    /// `file: name`, as every format names a scenario.
    public var title: String {
        name == Self.fileFailureName ? file : "\(file): \(name)"
    }
}

/// Counts over a run; its `description` is the closing line of the text format.
public struct ScenarioSummary: Sendable, Equatable, CustomStringConvertible {
    public var passed = 0
    public var failed = 0
    public var skipped = 0

    public init() {}

    public init(_ results: some Sequence<ScenarioResult>) {
        for result in results { add(result) }
    }

    public mutating func add(_ result: ScenarioResult) {
        switch result.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .skipped: skipped += 1
        }
    }

    public var total: Int { passed + failed + skipped }

    /// `N passed, N failed`, with `, N skipped` only when some were.
    public var description: String {
        var line = "\(passed) passed, \(failed) failed"
        if skipped > 0 { line += ", \(skipped) skipped" }
        return line
    }
}
