import Lua
import Portolan

/// The options an app sets on its root table besides its nodes: the one list of their names,
/// bounds and choices. The module hands the script's values of these fields over as written,
/// `AppOptions` reads and checks them (for `portolan.app` and the linter alike), and the linter
/// knows them as fields of the root.
public enum RootOption: String, CaseIterable, Sendable {
    case caseInsensitiveRoutes = "case_insensitive_routes"
    /// `significant_trailing_slash = true`: a pattern's final `/` is part of what it matches.
    case significantTrailingSlash = "significant_trailing_slash"
    case schemes
    case hosts
    case rollback
    case maxRedirects = "max_redirects"
    case animate
    case history
    case queue
    case maxDepth = "max_depth"
    case maxCopies = "max_copies"
    /// `version = N`: which version of the rules this is, for snapshots (docs/snapshots.md).
    case version
    /// `migrations = { [N] = { renamed =, removed =, moved =, context = } }`: what changed at each version.
    case migrations
    /// `handler_timeout = S`: how long one handler, guard or interceptor may take, in seconds.
    case handlerTimeout = "handler_timeout"
    /// `explore = { state =, contexts =, payloads =, urls =, back =, unreachable = }`: what
    /// `portolan explore` tries and where its expectations do not hold on purpose (docs/explore.md).
    case explore

    /// The whole numbers the option may be; nil for an option that is no number.
    public var range: ClosedRange<Int>? {
        switch self {
        // A chain of redirects longer than this is a loop, whatever the app says.
        case .maxRedirects: 0...1_000
        case .history: 0...10_000
        // The engine's bounds, which an app may lower (`PathLimits`).
        case .maxDepth: PathLimits.depthRange
        case .maxCopies: PathLimits.copiesRange
        case .version: RulesIdentity.versions
        case .caseInsensitiveRoutes, .significantTrailingSlash, .schemes, .hosts, .rollback, .animate, .queue, .migrations, .handlerTimeout, .explore: nil
        }
    }

    /// The strings the option may be, for an option that is a choice; nil for any other.
    public var choices: [String]? {
        switch self {
        case .queue: QueuePolicy.allCases.map(\.rawValue)
        case .animate: ["last", "each"]
        default: nil
        }
    }

    /// Whether the option is true or false.
    public var isFlag: Bool { self == .rollback || self == .caseInsensitiveRoutes || self == .significantTrailingSlash }

    /// Whether the option is a time limit in seconds (any number, not only whole ones): more than
    /// 0, and at most `ScriptNumbers.maxSeconds`, as every wait and limit a script or a command
    /// line gives. `portolan test --handler-timeout` takes the same bounds through `duration`.
    public var isTimeLimit: Bool { self == .handlerTimeout }

    /// `seconds` as a time limit of this option, or nil when it is out of the option's bounds.
    public func duration(seconds: Double) -> Duration? {
        guard isTimeLimit, seconds > 0 else { return nil }
        return ScriptNumbers.duration(seconds: seconds)
    }

    /// The values the option may take, as messages say them: `a whole number from 0 to 1000`, or
    /// `a number of seconds more than 0 and at most 1000000000`.
    public var bounds: String {
        if isTimeLimit { return "a number of seconds more than 0 and at most \(Int64(ScriptNumbers.maxSeconds))" }
        guard let range else { return "" }
        return "a whole number from \(range.lowerBound) to \(range.upperBound)"
    }
}
