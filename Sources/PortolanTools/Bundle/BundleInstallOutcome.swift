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
    /// swap are back (the tree carried back by snapshot and restore), and the bundle quarantined.
    /// `failingRoutes` names each route that failed, in order.
    case reverted(BundleManifest, failingRoutes: [CanaryFailure])

    /// One line for a log: `accepted: com.example.shop version 3 (canary passed 20 routes)`,
    /// `rejected at stage 6 (migration): …`, `reverted: com.example.shop version 3 after 2 failing routes: …`.
    public var text: String {
        switch self {
        case .accepted(let manifest, let canary):
            return "accepted: \(manifest.id) version \(manifest.version) (\(canary))"
        case .rejected(let stage, let reason):
            return "rejected at stage \(stage.rawValue) (\(stage)): \(reason.text)"
        case .reverted(let manifest, let failures):
            return "reverted: \(manifest.id) version \(manifest.version) after \(failures.count) failing route(s): "
                + failures.map(\.description).joined(separator: "; ")
        }
    }

    /// The word for each case: `accepted`, `rejected`, `reverted`.
    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .reverted: "reverted"
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

    public var description: String {
        switch self {
        case .watching(let routes): "canary watching the next \(routes) routes"
        case .passed(let routes): "canary passed \(routes) routes"
        case .undecided(let routes): "canary undecided after \(routes) routes: other rules were installed"
        }
    }
}
