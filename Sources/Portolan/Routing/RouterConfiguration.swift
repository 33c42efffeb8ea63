/// What the router does with a route request that arrives while a route runs.
public enum QueuePolicy: String, Sendable, CaseIterable {
    /// Each runs after those before it (the default).
    case fifo
    /// The newest wins: the queued routes are cancelled, and so is the running one between two
    /// instructions (it is rolled back); each fails as `cancelled`.
    case latestWins = "latest_wins"
}

/// How the router runs routes: its limits, and what a failed route leaves behind.
public struct RouterConfiguration: Sendable {
    /// How long one handler or interceptor may take, waits included (kind `timeout`).
    public var handlerTimeout: Duration
    /// How many redirects one route may follow before it fails as `invalid` (a loop).
    public var maxRedirects: Int
    /// Whether a route that fails midway is undone, so the tree ends where it started (the
    /// default), or left where it stopped.
    public var rollsBack: Bool
    /// Whether every instruction of a route is `animated`, or only its last (the default), so a
    /// host animates a deep link once.
    public var animatesEachStep: Bool
    /// How many finished routes `Router.history` keeps (the oldest go first).
    public var historyLimit: Int
    /// What happens to requests that arrive while a route runs.
    public var queuePolicy: QueuePolicy

    public init(
        handlerTimeout: Duration = defaultHandlerTimeout, maxRedirects: Int = 8, rollsBack: Bool = true,
        animatesEachStep: Bool = false, historyLimit: Int = 100, queuePolicy: QueuePolicy = .fifo
    ) {
        self.handlerTimeout = handlerTimeout
        self.maxRedirects = maxRedirects
        self.rollsBack = rollsBack
        self.animatesEachStep = animatesEachStep
        self.historyLimit = historyLimit
        self.queuePolicy = queuePolicy
    }
}

extension RouterConfiguration {
    /// How long a handler may take unless its router or host says otherwise: the one default, for
    /// a bare `Router` and for a `PortolanHost` alike.
    public static let defaultHandlerTimeout: Duration = .seconds(5)
}
