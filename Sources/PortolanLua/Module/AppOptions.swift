import Lua
import Portolan

/// The options an app sets on its root table, besides its nodes: how URLs match, and how its
/// router runs routes. Their names and bounds are `RootOption`'s; the module hands over the
/// script's values as written, and they are read, and checked, only here: `portolan.app` raises
/// the first mistake at the script's line, and `portolan check` reports each at its own.
package struct AppOptions: Sendable {
    /// `case_insensitive_routes = true`: URL patterns match letters in any case.
    package var caseInsensitiveRoutes = false
    /// `significant_trailing_slash = true`: `/a/` is not `/a` (unless a route says otherwise).
    package var significantTrailingSlash = false
    /// `schemes = { "shop" }`, `hosts = { "shop.example" }`: where URLs may come from, as listed.
    package var schemes: [String] = []
    package var hosts: [String] = []
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
    private var maxDepth = PathLimits.engine.maxDepth
    private var maxCopies = PathLimits.engine.maxCopies
    /// `version = N`: the rules' version a snapshot records (`RootOption.range`).
    package var version = 1
    /// `migrations = { [N] = { … } }`, by version; the core makes them `SnapshotMigration`s.
    package var migrations: [Int: DeclaredMigration] = [:]
    /// `handler_timeout = S`: the app's handler time limit, instead of its host's (`RootOption.duration`).
    var handlerTimeout: Duration?
    /// `explore = { state =, contexts =, … }`: what `portolan explore` tries (docs/explore.md).
    package var explore = ExploreDeclaration()

    package init() {}

    /// The options as the script wrote them (`{ queue = "fifo", … }`, only the root's option
    /// fields); the first that is wrong throws.
    init(lua options: LuaValue) throws(DeclarationError) {
        for option in RootOption.allCases {
            try read(option, options[.string(option.rawValue)])
        }
        try applyPathLimits()
    }

    /// Every option that can be read, and what is wrong with each of the others: what the linter
    /// reports, one finding an option. The migrations' `context` functions are not kept: the linter
    /// never calls them, and their references must not outlive its host.
    package static func each(lua options: LuaValue) -> (options: AppOptions, mistakes: [RootOption: String]) {
        var read = AppOptions(), mistakes: [RootOption: String] = [:]
        for option in RootOption.allCases {
            do { try read.read(option, options[.string(option.rawValue)]) } catch { mistakes[option] = error.message }
        }
        do { try read.applyPathLimits() } catch { mistakes[.maxCopies] = error.message }
        for version in read.migrations.keys { read.migrations[version]?.context = nil }
        return (read, mistakes)
    }

    /// Reads one option's value; nil leaves its default.
    private mutating func read(_ option: RootOption, _ value: LuaValue) throws(DeclarationError) {
        guard value != .nil else { return }
        switch option {
        case .caseInsensitiveRoutes: caseInsensitiveRoutes = try Self.flag(option, value)
        case .significantTrailingSlash: significantTrailingSlash = try Self.flag(option, value)
        case .rollback: rollsBack = try Self.flag(option, value)
        case .schemes: schemes = try Self.origins(option, value, example: #""shop" (a scheme, without "://")"#, valid: Self.isScheme)
        case .hosts: hosts = try Self.origins(option, value, example: #""shop.example" (a host name)"#, valid: Self.isHost)
        case .maxRedirects: maxRedirects = try Self.whole(option, value)
        case .history: historyLimit = try Self.whole(option, value)
        case .version: version = try Self.whole(option, value)
        case .maxDepth: maxDepth = try Self.whole(option, value)
        case .maxCopies: maxCopies = try Self.whole(option, value)
        case .animate: animatesEachStep = try Self.choice(option, value) == "each"
        case .queue: queuePolicy = QueuePolicy(rawValue: try Self.choice(option, value)) ?? .fifo
        case .handlerTimeout:
            guard let seconds = value.doubleValue, let limit = option.duration(seconds: seconds) else { throw Self.outOfBounds(option, value) }
            handlerTimeout = limit
        case .migrations: migrations = try DeclaredMigration.all(lua: value)
        case .explore: explore = try ExploreDeclaration(lua: value)
        }
    }

    /// `max_depth` and `max_copies` together, as `PathLimits` takes them.
    private mutating func applyPathLimits() throws(DeclarationError) {
        do {
            limits = try PathLimits(maxDepth: maxDepth, maxCopies: maxCopies)
        } catch {
            throw DeclarationError(message: error.description)
        }
    }

    private static func flag(_ option: RootOption, _ value: LuaValue) throws(DeclarationError) -> Bool {
        guard case .boolean(let flag) = value else {
            throw DeclarationError(message: "\(option.rawValue) must be true or false, not \(DeclaredValue.shown(value))")
        }
        return flag
    }

    private static func whole(_ option: RootOption, _ value: LuaValue) throws(DeclarationError) -> Int {
        guard case .integer(let number) = value, let whole = Int(exactly: number), option.range?.contains(whole) == true else {
            throw outOfBounds(option, value)
        }
        return whole
    }

    private static func outOfBounds(_ option: RootOption, _ value: LuaValue) -> DeclarationError {
        DeclarationError(message: "\(option.rawValue) must be \(option.bounds), not \(DeclaredValue.shown(value))")
    }

    private static func choice(_ option: RootOption, _ value: LuaValue) throws(DeclarationError) -> String {
        let choices = option.choices ?? []
        guard case .string(let text) = value, choices.contains(text) else {
            throw DeclarationError(message: "\(option.rawValue) must be \(DeclaredValue.either(choices)), not \(DeclaredValue.shown(value))")
        }
        return text
    }

    /// `schemes`, `hosts`: lists of strings that `valid` accepts.
    private static func origins(
        _ option: RootOption, _ value: LuaValue, example: String, valid: (String) -> Bool
    ) throws(DeclarationError) -> [String] {
        let field = option.rawValue
        guard case .table = value else {
            throw DeclarationError(message: "\(field) must be a list such as { \(example) }, not a \(value.typeName)")
        }
        var list: [String] = []
        for (index, item) in DeclaredValue.items(value).enumerated() {
            guard case .string(let text) = item, valid(text) else {
                throw DeclarationError(message: "\(field)[\(index + 1)] must be like \(example), not \(DeclaredValue.key(item))")
            }
            list.append(text)
        }
        return list
    }

    /// A scheme as `schemes` lists it (`ParsedURL.isScheme`), at most 64 bytes.
    private static func isScheme(_ text: String) -> Bool {
        text.utf8.count <= 64 && ParsedURL.isScheme(text)
    }

    /// A host name as `hosts` lists it: letters, digits, `-` and `.`, at most 253.
    private static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253
            && text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "-.".unicodeScalars.contains($0) }
    }

    /// Where URLs may come from (`URLOrigins`).
    var origins: URLOrigins { URLOrigins(schemes: Set(schemes), hosts: Set(hosts)) }

    /// The router's configuration; `hostTimeout` is the handler time limit unless the app sets its own.
    func routerConfiguration(handlerTimeout hostTimeout: Duration) -> RouterConfiguration {
        RouterConfiguration(
            handlerTimeout: handlerTimeout ?? hostTimeout, maxRedirects: maxRedirects, rollsBack: rollsBack,
            animatesEachStep: animatesEachStep, historyLimit: historyLimit, queuePolicy: queuePolicy)
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
