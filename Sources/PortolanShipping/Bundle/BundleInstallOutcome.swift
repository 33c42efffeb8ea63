import PortolanLua

/// What became of a rules bundle handed to `host.install(bundle:publicKey:options:)`, and what
/// `host.bundleOutcomes()` delivers to an app's own analytics (docs/bundles.md).
public enum BundleInstallOutcome: Sendable, Equatable {
    /// Every stage passed and the rules are in service; `canary` says whether the routes after
    /// the swap are still being watched or were watched and passed.
    case accepted(BundleManifest, canary: CanaryState)
    /// A stage refused the bundle; the rules in service, the live tree and `portolan.state` are
    /// as they were.
    case rejected(stage: BundleGateStage, reason: BundleRejectionReason)
    /// The canary saw more routes fail than the manifest allows: the rules in service before the
    /// swap are back, with the tree and `portolan.state` as the swap found them (what it set aside,
    /// put back), and the bundle quarantined.
    /// `failingRoutes` names each route that failed, in order.
    case reverted(BundleManifest, failingRoutes: [CanaryFailure])
    /// The canary failed as for `reverted`, and the bundle is quarantined, but not all came back:
    /// `problem` says what did not, and what serves now.
    case revertFailed(BundleManifest, failingRoutes: [CanaryFailure], problem: String)

    /// One line for a log: `accepted: com.example.shop version 3 (canary passed 20 routes)`,
    /// `rejected at stage 6 (migration): …`, `reverted: com.example.shop version 3 after 2 failing routes: …`.
    public var text: String {
        switch self {
        case .accepted(let manifest, let canary):
            return "accepted: \(manifest.id) version \(manifest.version) (\(canary))"
        case .rejected(let stage, let reason):
            return "rejected at stage \(stage.rawValue) (\(stage)): \(reason.text)"
        case .reverted(let manifest, let failures):
            return "reverted: \(manifest.id) version \(manifest.version) after \(Self.failures(failures))"
        case .revertFailed(let manifest, let failures, let problem):
            return "revert failed: \(manifest.id) version \(manifest.version) after \(Self.failures(failures)); \(problem)"
        }
    }

    private static func failures(_ failures: [CanaryFailure]) -> String {
        "\(failures.count) failing route(s): " + failures.map(\.description).joined(separator: "; ")
    }

    /// The words for each case: `accepted`, `rejected`, `reverted`, `revert failed`.
    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .reverted: "reverted"
        case .revertFailed: "revert failed"
        }
    }
}

/// Where the canary of an accepted bundle stands (docs/bundles.md, stage 8).
public enum CanaryState: Sendable, Equatable, CustomStringConvertible {
    /// It watches the next `routes` routes; the verdict comes as another outcome.
    case watching(routes: Int)
    /// It watched `routes` routes and too few failed: the bundle is the store's known good.
    case passed(routes: Int)
    /// Another bundle was swapped in after `routes` routes, before a verdict: this one is neither
    /// known good nor quarantined.
    case undecided(routes: Int)
    /// The app started again while the canary watched, and the watch resumed, for the `starts`th
    /// time: it watches the next `routes` routes afresh.
    case resumed(routes: Int, starts: Int)
    /// The store's known good, installed again as the app starts: its canary passed on an earlier run.
    case knownGood

    public var description: String {
        switch self {
        case .watching(let routes): "canary watching the next \(routes) routes"
        case .passed(let routes): "canary passed \(routes) routes"
        case .undecided(let routes): "canary undecided after \(routes) routes: other rules were installed"
        case .resumed(let routes, let starts):
            "canary resumed after a restart (start \(starts) of \(RulesUpdater.maximumResumes)): watching the next \(routes) routes"
        case .knownGood: "known good: its canary passed on an earlier run"
        }
    }
}
