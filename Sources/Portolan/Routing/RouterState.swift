/// Everything the router changes, behind its lock: what any thread may read or change (the tree,
/// the bindings, the rules, the queue) and what the routes leave behind (the histories).
struct RouterState {
    var tree: RoutingTree
    var nodes: [NodeID: NodeHandlers] = [:]
    var interceptors: [InterceptorHandler] = []
    var redirects = URLRedirects()
    /// The route running, those waiting, and whether a drain runs them.
    var routes = RouteScheduler()
    var history: RouteHistory
    var switchHistory = SwitchHistory()
}
