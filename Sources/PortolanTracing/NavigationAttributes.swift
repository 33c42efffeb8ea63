/// The names Portolan's spans carry: a proposed convention for navigation, beside OpenTelemetry's
/// `app.screen.*` (docs/telemetry.md lists each with its meaning). Defined once, here: the spans
/// are made with them, and the tests and docs read them.
public enum NavigationAttributes {
    // OpenTelemetry's own (semantic conventions, "App"): the screen a route goes to.
    /// The destination's screen: the node id of its last entry.
    public static let screenName = "app.screen.name"
    /// The destination's screen with its context, as Portolan writes an entry (`movie {id=1}`).
    public static let screenID = "app.screen.id"

    // A route.
    /// Where the route started: the active path, as Portolan writes a path (`root > home`).
    public static let from = "portolan.route.from"
    /// The screen the route started on: the node id of the active path's last entry.
    public static let fromScreenName = "portolan.route.from.screen.name"
    /// The destination as requested.
    public static let to = "portolan.route.to"
    /// Where it went after its redirects, when that is not where it was asked to go.
    public static let settled = "portolan.route.settled"
    /// `done`, `redirected`, `denied`, `failed` or `rolled_back` (``RouteOutcome``).
    public static let outcome = "portolan.route.outcome"
    /// The destinations the route was sent to, in order, after the one requested.
    public static let redirects = "portolan.route.redirects"
    /// How many instructions ran (a no-op route: 0).
    public static let instructions = "portolan.route.instructions"
    /// How many of them a failure undid.
    public static let rolledBack = "portolan.route.rolled_back"
    /// A failure's kind (`denied`, `unreachable`, `handler_failed`, …: `RouteFailure.Kind`).
    public static let failureKind = "portolan.route.failure.kind"
    /// A failure's message.
    public static let failureReason = "portolan.route.failure.reason"
    /// Where it failed: `request` (refused before it became a route) or `route`.
    public static let failureStage = "portolan.route.failure.stage"
    /// The URL that led nowhere, for a route by URL that failed.
    public static let url = "portolan.route.url"

    // The event on a route's span for an instruction that ran long.
    /// Its name.
    public static let slowHandlerEvent = "portolan.handler.slow"
    /// The instruction, as Portolan writes one (`enter movie {id=1}`).
    public static let instruction = "portolan.instruction"
    /// How long it took, its handlers included, in milliseconds.
    public static let durationMilliseconds = "portolan.handler.duration_ms"

    // A rules change.
    /// `accepted`, `rejected`, `reverted`, `revert failed`, or for a reload `reloaded` and `failed`.
    public static let rulesOutcome = "portolan.rules.outcome"
    /// For a reload: how many instructions its screens that went left with, and how many entered.
    public static let rulesLeft = "portolan.rules.left"
    public static let rulesEntered = "portolan.rules.entered"
    /// The bundle's id and version, as its manifest names them.
    public static let bundleID = "portolan.bundle.id"
    public static let bundleVersion = "portolan.bundle.version"
    /// Where the gate refused a bundle (`BundleGateStage`), and why.
    public static let gateStage = "portolan.bundle.gate.stage"
    public static let rejection = "portolan.bundle.rejection"
    /// How long the swap held the host's thread, in milliseconds.
    public static let swapPauseMilliseconds = "portolan.rules.swap.pause_ms"
    /// The routes a canary watches, or watched before its verdict; those that failed it.
    public static let canaryRoutes = "portolan.canary.routes"
    public static let canaryFailingRoutes = "portolan.canary.failing_routes"
    /// What the canary said: `passed`, `reverted`, `undecided`.
    public static let canaryVerdict = "portolan.canary.verdict"
}

/// How a route ended, as a span's `portolan.route.outcome` says.
public enum RouteOutcome: String, Sendable, CaseIterable {
    /// It got where it was asked to go (a no-op route too: no instruction ran).
    case done
    /// It got somewhere, after one redirect or more.
    case redirected
    /// A guard or an interceptor refused it.
    case denied
    /// It failed, and nothing had to be undone (or the router does not roll back).
    case failed
    /// It failed midway, and what it had done was undone.
    case rolledBack = "rolled_back"
}
