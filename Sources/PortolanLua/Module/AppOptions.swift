import Lua
import Portolan

/// The options an app sets on its root table, besides its nodes: how URLs match, and how its
/// router runs routes. The module checks their types at the script's line and hands them over.
struct AppOptions {
    /// `case_insensitive_routes = true`: URL patterns match letters in any case.
    var caseInsensitiveRoutes = false
    /// `schemes = { "shop" }`, `hosts = { "shop.example" }`: where URLs may come from.
    var origins = URLOrigins.any
    /// `rollback = false`: a failed route is left where it stopped instead of undone.
    var rollsBack = true
    /// `max_redirects = N`: how many redirects one route may follow (0…1000, 8 by default).
    var maxRedirects = 8
    /// `animate = "each"`: every instruction is `animated`, not only a route's last.
    var animatesEachStep = false
    /// `queue = "latest_wins"`: a request that arrives during a route cancels the others.
    var queuePolicy = QueuePolicy.fifo
    /// `history = N`: how many finished routes `portolan.history()` keeps (0…10,000, 100 by default).
    var historyLimit = 100

    /// The most `max_redirects` may be: a chain longer than this is a loop whatever the app says.
    static let redirectLimitBound = 1_000

    init() {}

    init(lua options: LuaValue) {
        caseInsensitiveRoutes = options["case_insensitive_routes"] == .boolean(true)
        origins = URLOrigins(
            schemes: Set((options["schemes"].arrayValue ?? []).compactMap(\.stringValue)),
            hosts: Set((options["hosts"].arrayValue ?? []).compactMap(\.stringValue)))
        rollsBack = options["rollback"] != .boolean(false)
        if let limit = options["max_redirects"].intValue, (0...Int64(Self.redirectLimitBound)).contains(limit) {
            maxRedirects = Int(limit)
        }
        animatesEachStep = options["animate"] == .string("each")
        queuePolicy = options["queue"].stringValue.flatMap(QueuePolicy.init(rawValue:)) ?? .fifo
        if let limit = options["history"].intValue, (0...10_000).contains(limit) {
            historyLimit = Int(limit)
        }
    }

    func routerConfiguration(handlerTimeout: Duration) -> RouterConfiguration {
        RouterConfiguration(
            handlerTimeout: handlerTimeout, maxRedirects: maxRedirects, rollsBack: rollsBack,
            animatesEachStep: animatesEachStep, historyLimit: historyLimit, queuePolicy: queuePolicy)
    }
}
