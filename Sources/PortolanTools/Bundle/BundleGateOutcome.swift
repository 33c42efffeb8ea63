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
    /// Its own scenarios pass within the time budget.
    case scenarios

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .integrity: "integrity"
        case .requirements: "requirements"
        case .load: "load"
        case .lint: "lint"
        case .scenarios: "scenarios"
        }
    }
}

/// Why the gate refused a bundle, by stage.
public enum BundleRejectionReason: Sendable, Equatable {
    /// Stages 1 and 2: what the bytes or the manifest fail.
    case invalid(BundleError)
    /// Stage 3: the load's error.
    case loadFailed(String)
    /// Stage 4: the linter's errors.
    case lintErrors([CheckFinding])
    /// Stage 5: each failing scenario as `file: name: message`.
    case scenariosFailed([String])
    /// Stage 5: the scenarios took longer than the budget.
    case scenarioBudgetExceeded(took: Duration, budget: Duration)

    public var text: String {
        switch self {
        case .invalid(let error): error.reason
        case .loadFailed(let message): "the rules do not load: \(message)"
        case .lintErrors(let findings): "check found \(findings.count) error(s): " + findings.map(\.text).joined(separator: "; ")
        case .scenariosFailed(let failures): "scenario failed: " + failures.joined(separator: "; ")
        case .scenarioBudgetExceeded(let took, let budget): "the scenarios took \(took), more than the budget of \(budget)"
        }
    }
}

/// What the gate decided. `passed` means every stage built so far passed; it installs nothing:
/// the live swap, the canary and the revert are not built yet, so the running rules never change.
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
