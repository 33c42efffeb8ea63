import Portolan
import PortolanLua
import PortolanShipping

/// The limits and settings of one exploration (docs/explore.md). Every limit is bounded by
/// default; a run that reaches one says which, and what it did not explore.
public struct ExploreOptions: Sendable {
    /// How many actions from the start the explorer goes: states this far are visited, not expanded.
    public var depth: Int
    /// How many states it visits at most.
    public var states: Int
    /// How long it may run, in seconds. A run cut by time is the one kind of run whose report may
    /// differ from run to run.
    public var seconds: Double
    /// How long one handler, guard or interceptor may take, and how many Lua instructions it may run.
    public var handlerTimeout: Duration
    public var handlerInstructionBudget: Int
    /// How many hosts explore at once; the report is the same, byte for byte, whatever it is.
    public var jobs: Int
    /// The seed of `math.random` in every host the explorer starts.
    public var seed: Int
    /// Scenario files whose literal contexts, payloads and URLs are examples (docs/explore.md).
    public var scenarioFiles: [String]
    /// How many example contexts (or payloads) the explorer tries for one node (or step).
    public var examplesPerNode: Int
    /// How often a state's actions are each run a second time, to see that they are deterministic:
    /// every state's within `recheckDepth` of the start, and one state's in `recheck` beyond (the
    /// states whose fingerprints `recheck` divides). A random handler shows near the start as well
    /// as deep down; the second run is about a third of an action's cost.
    public var recheck: Int
    public static let recheckDepth = 2
    /// Whether the report keeps the edge of every action run, which the drawing (`ExploreGraph`)
    /// and the coverage page need. Without them a visited state costs its fingerprint, its place in
    /// the search and a reference to its shared path; with them, about 60 bytes more per action.
    public var keepsEdges = true
    /// How many states one host explores before the next host starts afresh. Fixed, not derived
    /// from `jobs`, so that what a host did before a state is the same whatever `jobs` is.
    public var batchSize: Int
    /// The app's Swift side, given to every host the explorer starts before its app loads: what
    /// an embedder binds and adds (`PortolanHost.bind`, `addFlow`), so that its Swift nodes,
    /// guards and flows are explored with the script's.
    public var embed: (@Sendable (PortolanHost) async -> Void)?

    public init(
        depth: Int = 6, states: Int = 2_000, seconds: Double = 300, handlerTimeout: Duration = .seconds(2),
        handlerInstructionBudget: Int = 1_000_000, jobs: Int = 1, seed: Int = 1, scenarioFiles: [String] = [],
        examplesPerNode: Int = 2, batchSize: Int = 16, recheck: Int = 4
    ) {
        self.depth = max(0, depth)
        self.states = max(1, states)
        self.seconds = seconds
        self.handlerTimeout = handlerTimeout
        self.handlerInstructionBudget = max(1, handlerInstructionBudget)
        self.jobs = max(1, jobs)
        self.seed = seed
        self.scenarioFiles = scenarioFiles
        self.examplesPerNode = max(1, examplesPerNode)
        self.batchSize = max(1, batchSize)
        self.recheck = max(1, recheck)
    }

    /// Whether the actions of a state at `depth` with `fingerprint` are each run twice.
    func rechecks(depth: Int, fingerprint: UInt64) -> Bool {
        depth <= Self.recheckDepth || fingerprint % UInt64(recheck) == 0
    }

    /// A host of the exploration: the app's Swift side given, then the app loaded as every command loads it.
    func startHost(app: String) async throws(HostError) -> PortolanHost {
        let host = try PortolanHost(configuration: hostConfiguration(app: app))
        await embed?(host)
        try await AppLoadLimits.loadApp(host, file: app)
        return host
    }

    /// The configuration of each host: these handler limits, the app's directory for `require`.
    func hostConfiguration(app: String) -> HostConfiguration {
        HostConfiguration(
            handlerTimeout: handlerTimeout, handlerInstructionBudget: handlerInstructionBudget,
            scriptInstructionBudget: AppLoadLimits.scriptInstructionBudget, moduleDirectory: FilePaths.directory(of: app))
    }
}
