import Portolan
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
    /// The scenario's name, at most `nameBytes`; for a file that failed as a whole,
    /// ``ScenarioResult/fileFailureName``.
    public var name: String {
        didSet { name = Self.bounded(name: name) }
    }
    /// Its message at most `messageBytes`.
    public var outcome: Outcome {
        didSet { outcome = outcome.bounded }
    }
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

    /// The most bytes of a scenario's name: every report line starts with it, and a name is a
    /// sentence, not data (a 10 MiB one made gigabytes of report).
    public static let nameBytes = 200
    /// The most bytes of a failure's or a skip's message: what a scenario raised, an expectation's
    /// diff. 64 KiB, as a route failure's (`RouteFailure.messageBytes`), holds any message meant
    /// to be read; reports show it once per failure.
    public static let messageBytes = 64 << 10

    /// `name` cut at `nameBytes`, the cut marked.
    static func bounded(name: String) -> String {
        Excerpt.cut(name, toBytes: nameBytes)
    }

    public init(
        file: String, name: String, outcome: Outcome, output: [String] = [], routes: [String] = [],
        duration: Duration = .zero, coverage: ScenarioCoverage? = nil
    ) {
        self.file = file
        self.name = Self.bounded(name: name)
        self.outcome = outcome.bounded
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

extension ScenarioResult.Outcome {
    /// The outcome with its message cut at `ScenarioResult.messageBytes`.
    var bounded: Self {
        switch self {
        case .passed: .passed
        case .failed(let message): .failed(Excerpt.cut(message, toBytes: ScenarioResult.messageBytes))
        case .skipped(let reason): .skipped(Excerpt.cut(reason, toBytes: ScenarioResult.messageBytes))
        }
    }
}

/// Counts over a run; its `description` is the closing line of the text format.
public struct ScenarioSummary: Sendable, Equatable, CustomStringConvertible {
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    /// What the run's selection left out (`scenario.only`, `--filter`), if anything.
    public var narrowing: ScenarioNarrowing?

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
