import Portolan

/// The app's rules for the canary that watches the routes after a bundle's swap (docs/bundles.md,
/// stage 8). The app owns them (`BundleInstallOptions.canary`); a bundle's manifest may only
/// tighten them (`tightened(by:)`), so a bundle that says `"routes": 0` or `"max_failure_ratio": 1`
/// is still watched as the app says.
public struct CanaryPolicy: Sendable, Equatable {
    /// The fewest routes watched before the rules are known good.
    public var routes: Int
    /// The largest share of those routes that may fail, from 0 to 1.
    public var maximumFailureRatio: Double
    /// The ways of failing that count against the rules.
    public var counted: Set<RouteFailure.Kind>
    /// Whether a route the rules' guards or interceptors sent elsewhere counts against them: the
    /// user did not get where they asked, so rules that redirect everything do not pass. An app
    /// whose rules redirect by design (to a sign-in screen) may turn it off, or allow a higher ratio.
    public var countsRedirects: Bool

    /// Every way a route the user asked for can fail because of the rules: a handler that failed
    /// or timed out, a destination invalid or unreachable, and a guard's denial or a `can_leave`
    /// that blocks, since rules that deny everything must not pass. A cancelled or duplicated
    /// request is the user's doing, not the rules'.
    public static let countedByDefault: Set<RouteFailure.Kind> = [.handlerFailed, .timeout, .invalid, .unreachable, .denied, .blocked]

    public init(
        routes: Int = 20, maximumFailureRatio: Double = 0.1, counted: Set<RouteFailure.Kind> = countedByDefault, countsRedirects: Bool = true
    ) {
        self.routes = max(0, routes)
        self.maximumFailureRatio = maximumFailureRatio.isFinite ? min(1, max(0, maximumFailureRatio)) : 0
        self.counted = counted
        self.countsRedirects = countsRedirects
    }

    /// This policy, tightened by what a manifest asks: at least as many routes, at most as large
    /// a failure ratio. A manifest never loosens it.
    public func tightened(by settings: CanarySettings) -> CanaryPolicy {
        CanaryPolicy(
            routes: max(routes, settings.routes), maximumFailureRatio: min(maximumFailureRatio, settings.maximumFailureRatio),
            counted: counted, countsRedirects: countsRedirects)
    }
}
