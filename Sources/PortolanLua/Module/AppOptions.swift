import Lua
import Portolan

/// The options an app sets on its root table, besides its nodes: how URLs match, and how its
/// router runs routes. The module checks them at the script's line and hands them over; their
/// names and bounds are `RootOption`'s.
struct AppOptions {
    /// `case_insensitive_routes = true`: URL patterns match letters in any case.
    var caseInsensitiveRoutes = false
    /// `significant_trailing_slash = true`: `/a/` is not `/a` (unless a route says otherwise).
    var significantTrailingSlash = false
    /// `schemes = { "shop" }`, `hosts = { "shop.example" }`: where URLs may come from.
    var origins = URLOrigins.any
    /// `rollback = false`: a failed route is left where it stopped instead of undone.
    var rollsBack = true
    /// `max_redirects = N`: how many redirects one route may follow (`RootOption.range`).
    var maxRedirects = RouterConfiguration().maxRedirects
    /// `animate = "each"`: every instruction is `animated`, not only a route's last.
    var animatesEachStep = false
    /// `queue = "latest_wins"`: a request that arrives during a route cancels the others.
    var queuePolicy = QueuePolicy.fifo
    /// `history = N`: how many finished routes `portolan.history()` keeps (`RootOption.range`).
    var historyLimit = RouterConfiguration().historyLimit
    /// `max_depth = N`, `max_copies = N`: how deep paths may grow, how many copies of one node
    /// they may hold (`RootOption.range`, `PathLimits`).
    var limits = PathLimits.engine
    /// `version = N`: the rules' version a snapshot records (`RootOption.range`).
    var version = 1
    /// `migrations = { [N] = { … } }`, as the module's checker let them through; the core makes
    /// them `SnapshotMigration`s (their `context` functions run through its runner).
    var migrations: [Int: LuaValue] = [:]
    /// `handler_timeout = S`: the app's handler time limit, instead of its host's (`RootOption.duration`).
    var handlerTimeout: Duration?
    /// `explore = { state =, contexts =, … }`: what `portolan explore` tries (docs/explore.md).
    var explore = ExploreDeclaration()

    init() {}

    /// The options the module's checker let through (`NodeDescription.lua`). A value out of its
    /// option's range throws, never falls back to the default.
    init(lua options: LuaValue) throws(DeclarationError) {
        func value(_ option: RootOption) -> LuaValue { options[.string(option.rawValue)] }
        func number(_ option: RootOption, default fallback: Int) throws(DeclarationError) -> Int {
            guard value(option) != .nil else { return fallback }
            guard let range = option.range, let number = value(option).intValue.flatMap({ Int(exactly: $0) }),
                  range.contains(number) else {
                let bounds = option.range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
                throw DeclarationError(message: "\(option.rawValue) must be a whole number\(bounds), not \(value(option))")
            }
            return number
        }
        caseInsensitiveRoutes = value(.caseInsensitiveRoutes) == .boolean(true)
        significantTrailingSlash = value(.significantTrailingSlash) == .boolean(true)
        origins = URLOrigins(
            schemes: Set((value(.schemes).arrayValue ?? []).compactMap(\.stringValue)),
            hosts: Set((value(.hosts).arrayValue ?? []).compactMap(\.stringValue)))
        rollsBack = value(.rollback) != .boolean(false)
        maxRedirects = try number(.maxRedirects, default: maxRedirects)
        animatesEachStep = value(.animate) == .string("each")
        queuePolicy = value(.queue).stringValue.flatMap(QueuePolicy.init(rawValue:)) ?? .fifo
        historyLimit = try number(.history, default: historyLimit)
        version = try number(.version, default: version)
        if let seconds = value(.handlerTimeout).doubleValue {
            guard let limit = RootOption.handlerTimeout.duration(seconds: seconds) else {
                throw DeclarationError(message: "handler_timeout must be \(RootOption.handlerTimeout.bounds), not \(seconds)")
            }
            handlerTimeout = limit
        }
        if case .table(let table) = value(.migrations) {
            for (key, step) in table {
                guard let version = key.intValue.flatMap({ Int(exactly: $0) }) else { continue }
                migrations[version] = step
            }
        }
        explore = ExploreDeclaration(lua: value(.explore))
        let maxDepth = try number(.maxDepth, default: limits.maxDepth)
        let maxCopies = try number(.maxCopies, default: limits.maxCopies)
        do {
            limits = try PathLimits(maxDepth: maxDepth, maxCopies: maxCopies)
        } catch {
            throw DeclarationError(message: error.description)
        }
    }

    /// The router's configuration; `hostTimeout` is the handler time limit unless the app sets its own.
    func routerConfiguration(handlerTimeout hostTimeout: Duration) -> RouterConfiguration {
        RouterConfiguration(
            handlerTimeout: handlerTimeout ?? hostTimeout, maxRedirects: maxRedirects, rollsBack: rollsBack,
            animatesEachStep: animatesEachStep, historyLimit: historyLimit, queuePolicy: queuePolicy)
    }
}
