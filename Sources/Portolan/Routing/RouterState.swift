/// Everything the router changes, behind its lock: what any thread may read or change (the tree,
/// the bindings, the rules, the queue) and what the routes leave behind (the histories).
struct RouterState {
    var tree: RoutingTree
    var nodes: [NodeID: NodeHandlers] = [:]
    /// The same bindings by node index, for a route's planned steps.
    var nodesByIndex = NodeIndexBindings()
    var interceptors: [InterceptorHandler] = []
    /// The flows that turn steps into routes, asked in this order.
    var flows: [Flow] = []
    var redirects = URLRedirects()
    /// The route running, those waiting, and whether a drain runs them.
    var routes = RouteScheduler()
    var history: RouteHistory
    var switchHistory = SwitchHistory()
    /// The running route's way back to the tree it started from, when it rolls back.
    var undoLog: RouteUndoLog?
    /// `failed` events of requests refused from another thread while a drain ran, for the drain to
    /// emit on the router's thread before its next route: handing them to the thread would count as
    /// work queued on a thread an async handler's wait blocks (`AwaitedWork`).
    var refusalsToEmit: [RouterEvent] = []
}
