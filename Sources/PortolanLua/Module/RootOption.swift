import Lua
import Portolan

/// The options an app sets on its root table besides its nodes: the one list of their names and
/// bounds. The module's checker of root options gets the bounds as a chunk argument (so a value out
/// of range is an error at the script's line), `AppOptions` reads the options by these names, and
/// the linter knows them as fields of the root.
public enum RootOption: String, CaseIterable, Sendable {
    case caseInsensitiveRoutes = "case_insensitive_routes"
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
        case .caseInsensitiveRoutes, .schemes, .hosts, .rollback, .animate, .queue, .migrations: nil
        }
    }

    /// What the module's checker gets: `{ max_redirects = { 0, 1000 }, … }` for each numeric option.
    static var luaBounds: [LuaValue: LuaValue] {
        var bounds: [LuaValue: LuaValue] = [:]
        for option in allCases {
            guard let range = option.range else { continue }
            bounds[.string(option.rawValue)] = .array([.integer(Int64(range.lowerBound)), .integer(Int64(range.upperBound))])
        }
        return bounds
    }
}
