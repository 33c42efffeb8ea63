import PortolanLua

/// The stages of the gate a rules bundle passes before a host may take it, in the order they run
/// (docs/bundles.md, "What the gate checks").
public enum BundleGateStage: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// The bytes are a bundle, its manifest is signed by the key, every file has its hash.
    case integrity = 1
    /// The engine ABI, and every Swift node, function and context key it requires.
    case requirements
    /// Its rules load in a sandboxed host of their own, under the app-load limits.
    case load
    /// `check` finds no error in its entry file.
    case lint
    /// Its own scenarios, and the contract scenarios the host pins, pass within the time budget.
    case scenarios
    /// The live state, restored under its rules in a sandbox, keeps the active screen unless a
    /// declared migration says otherwise (`host.install` only).
    case migration
    /// The live swap: the state restored under the new rules in the live host (`host.install` only).
    case swap
    /// The canary: the routes after the swap (`host.install` only).
    case canary

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .integrity: "integrity"
        case .requirements: "requirements"
        case .load: "load"
        case .lint: "lint"
        case .scenarios: "scenarios"
        case .migration: "migration"
        case .swap: "swap"
        case .canary: "canary"
        }
    }
}

/// Why the gate refused a bundle, by stage.
public enum BundleRejectionReason: Sendable, Equatable {
    /// Stages 1 and 2: what the bytes or the manifest fail.
    case invalid(BundleError)
    /// Stage 3: the load's error.
    case loadFailed(String)
    /// Stage 3: the load did not finish within the gate's time limit, which says as much about how
    /// busy the device was as about the rules: retried at the next install, never quarantined.
    case loadTimeLimit(String)
    /// Stage 4: the linter's errors.
    case lintErrors([CheckFinding])
    /// Stage 5: each failing scenario as `file: name: message`.
    case scenariosFailed([String])
    /// Stage 5: the scenarios took longer than the budget.
    case scenarioBudgetExceeded(took: Duration, budget: Duration)
    /// Stage 5: each failing contract scenario of the host's (`BundleInstallOptions.contract`),
    /// as `file: name: message`.
    case contractFailed([String])
    /// Stage 1, after the signature: this id and version was rejected or reverted before, and is
    /// never installed again.
    case quarantined(id: String, version: Int)
    /// Stage 1, after the signature: a version not above the store's floor (the highest whose
    /// canary passed, of any id), or not above the one a canary watches now.
    case replayedVersion(id: String, offered: Int, installed: Int)
    /// Stage 1, after the signature: a version further above the floor than one release may go
    /// (`BundleInstallOptions.maximumVersionStep`), which would refuse every release after it.
    case versionJump(offered: Int, floor: Int, maximumStep: Int)
    /// Stage 1, after the signature: the manifest's `expires` (seconds since 1970) has passed.
    case expired(at: Int)
    /// Stage 1, after the signature: the app requires an expiry (`requiresExpiry`), and the
    /// manifest gives none.
    case noExpiry
    /// Stage 8, as the app starts: the app stopped `starts` times while this bundle's canary
    /// watched, and never once did the canary reach a verdict: the likeliest cause is the rules.
    case canaryNeverEnded(starts: Int)
    /// Stage 6: restoring the live state under the new rules refused it.
    case migrationRefused(String)
    /// Stage 6 (or 7): the live state restored under the new rules no longer shows the active
    /// screen, and no declared migration (`renamed`, `moved`, `removed`) and no guard says why.
    case activeScreenLost(screen: String, changes: [String])
    /// Stage 7: the swap in the live host failed; the rules in service stay.
    case swapFailed(String)

    /// Whether this is a verdict on the bundle's own bytes, the same on every device and every
    /// try: rules that do not load, lint errors, failing scenarios. What depends on the device
    /// (its speed, its disk), on the live state (the screen the user is on, a value the snapshot
    /// refuses) or on this build of the app (what it provides) is not, and neither is anything
    /// decided before the signature held, whose id and version are not to be trusted.
    public var isAboutTheBundle: Bool {
        switch self {
        case .loadFailed, .lintErrors, .scenariosFailed, .contractFailed: true
        case .invalid, .loadTimeLimit, .scenarioBudgetExceeded, .quarantined, .replayedVersion, .versionJump, .expired, .noExpiry,
             .migrationRefused, .activeScreenLost, .swapFailed, .canaryNeverEnded: false
        }
    }

    public var text: String {
        switch self {
        case .invalid(let error): error.reason
        case .loadFailed(let message): "the rules do not load: \(message)"
        case .loadTimeLimit(let message): "the rules did not load in time: \(message)"
        case .lintErrors(let findings): "check found \(findings.count) error(s): " + findings.map(\.text).joined(separator: "; ")
        case .scenariosFailed(let failures): "scenario failed: " + failures.joined(separator: "; ")
        case .scenarioBudgetExceeded(let took, let budget): "the scenarios took \(took), more than the budget of \(budget)"
        case .contractFailed(let failures): "contract scenario failed: " + failures.joined(separator: "; ")
        case .quarantined(let id, let version): "quarantined: \(id) version \(version) was rejected or reverted before"
        case .replayedVersion(let id, let offered, let installed):
            "replayed older version: \(id) version \(offered), and version \(installed) is installed"
        case .versionJump(let offered, let floor, let step):
            "version \(offered) jumps more than \(step) above the installed version \(floor)"
        case .expired(let at): "expired: it may be installed until \(at) seconds since 1970 (UTC), and that has passed"
        case .noExpiry: "no expiry: this app requires bundles to say until when they may be installed"
        case .canaryNeverEnded(let starts):
            "the app stopped \(starts) times while the canary watched these rules, without a verdict"
        case .migrationRefused(let reason): "the live state cannot be restored under these rules: \(reason)"
        case .activeScreenLost(let screen, let changes):
            "the migration loses the active screen '\(screen)' without saying so"
                + (changes.isEmpty ? "" : " (" + changes.joined(separator: "; ") + ")")
        case .swapFailed(let reason): "the swap failed: \(reason)"
        }
    }
}

/// What `host.checkBundle` decided: `passed` means stages 1 to 5 passed. It installs nothing, so
/// the running rules never change; `host.install` runs the whole gate (`BundleInstallOutcome`).
public enum BundleGateOutcome: Sendable, Equatable {
    case passed(BundleManifest)
    case rejected(stage: BundleGateStage, reason: BundleRejectionReason)

    public var text: String {
        switch self {
        case .passed(let manifest): "passed: \(manifest.id) version \(manifest.version)"
        case .rejected(let stage, let reason): "rejected at stage \(stage.rawValue) (\(stage)): \(reason.text)"
        }
    }
}
