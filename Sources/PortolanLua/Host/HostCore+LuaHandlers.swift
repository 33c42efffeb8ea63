import Lua
import Portolan

/// A node's Lua handlers, guards and interceptors, as the router calls them inside a route's unit
/// of work: each is a direct call of the module's `run_handler`, `run_guard` or `run_interceptors` on the
/// host's thread, run by the host's `LuaRunner`.
extension HostCore {
    /// The router's handlers for a node with these declared Lua handlers: only those it has, so a
    /// node without `leave` or `can_leave` costs the route nothing for them. Nil when it has none.
    /// `timeLimit` is that router's handler
    /// time limit, read once here rather than from its configuration on every call.
    func luaHandlers(of id: NodeID, declared: Set<HandlerName>, timeLimit: Duration) -> NodeHandlers? {
        var handlers = NodeHandlers()
        let node = PinnedNodeStrings(id: id)
        // Unowned: the core owns the router these are bound to.
        if declared.contains(.enter) {
            handlers.enter = { [unowned self] entry, info in try runHandler(.enter, of: node, entry: entry, info: info, timeLimit: timeLimit) }
        }
        if declared.contains(.leave) {
            handlers.leave = { [unowned self] entry, info in try runHandler(.leave, of: node, entry: entry, info: info, timeLimit: timeLimit) }
        }
        if declared.contains(.switch) {
            handlers.switchTo = { [unowned self] child, info in try runHandler(.switch, of: node, entry: child, info: info, timeLimit: timeLimit) }
        }
        if declared.contains(.update) {
            handlers.update = { [unowned self] entry, info in try runHandler(.update, of: node, entry: entry, info: info, timeLimit: timeLimit) }
        }
        if declared.contains(.move) {
            handlers.move = { [unowned self] entry, info in try runHandler(.move, of: node, entry: entry, info: info, timeLimit: timeLimit) }
        }
        if declared.contains(.canLeave) {
            handlers.canLeave = { [unowned self] entry in try canLeave(node, entry: entry, timeLimit: timeLimit) }
        }
        if declared.contains(.guard) {
            handlers.guardRoute = { [unowned self] request in try runGuard(of: node.id, request) }
        }
        if declared.contains(.contextTask) {
            handlers.contextTask = { [unowned self] entry, destination in try runContextTask(of: node, entry: entry, destination: destination, timeLimit: timeLimit) }
        }
        let hasAny = handlers.enter != nil || handlers.leave != nil || handlers.switchTo != nil || handlers.update != nil
            || handlers.move != nil || handlers.canLeave != nil || handlers.guardRoute != nil || handlers.contextTask != nil
        return hasAny ? handlers : nil
    }

    /// Calls the module's `run_handler(id, field, context, entry_id, index, count, animated, url)`,
    /// each argument pushed straight onto the handler's thread: the id and field as pinned
    /// strings, the context only when there is one, the entry's id only when it is not the node's
    /// (a switch's child), and the instruction's text never: Lua asks for it when a handler reads
    /// `info.instruction`.
    private func runHandler(
        _ field: HandlerName, of node: PinnedNodeStrings, entry: Entry, info: InstructionInfo, timeLimit: Duration
    ) throws {
        session.currentDestination = info.destination
        session.currentInstruction = info.instruction
        let state = state
        let values = try runner.runHandler(try runHandlerFunction, count: 8, timeLimit: timeLimit) { (arguments) throws(LuaError) in
            try Self.pushNodeArguments(field, of: node, entry: entry, onto: arguments, in: state)
            if entry.id == node.id { arguments.pushNil() } else { try arguments.push(.string(entry.id)) }
            arguments.push(Int64(info.index + 1))   // Lua counts from 1
            arguments.push(Int64(info.count))
            arguments.push(info.animated)
            if let url = info.url { try arguments.push(.table(url.urlFields)) } else { arguments.pushNil() }
        }
        try HandlerResult.check(values, handler: "\(field.rawValue) of '\(node.id)'")
    }

    /// The module's `run_handler`, read alone (``module`` copies every function of the module).
    private var runHandlerFunction: LuaReference {
        get throws(HostError) {
            guard case .function(let function)? = installed?.functions.runHandler else {
                throw HostError("the portolan module is not installed")
            }
            return function
        }
    }

    private func runContextTask(of node: PinnedNodeStrings, entry: Entry, destination: Destination, timeLimit: Duration) throws {
        session.currentDestination = destination
        session.currentInstruction = nil
        let state = state
        let values = try runner.runHandler(try runHandlerFunction, count: 3, timeLimit: timeLimit) { (arguments) throws(LuaError) in
            try Self.pushNodeArguments(.contextTask, of: node, entry: entry, onto: arguments, in: state)
        }
        try HandlerResult.check(values, handler: "\(HandlerName.contextTask.rawValue) of '\(node.id)'")
    }

    private func canLeave(_ node: PinnedNodeStrings, entry: Entry, timeLimit: Duration) throws -> Bool {
        let state = state
        let values = try runner.runHandler(try runHandlerFunction, count: 3, timeLimit: timeLimit) { (arguments) throws(LuaError) in
            try Self.pushNodeArguments(.canLeave, of: node, entry: entry, onto: arguments, in: state)
        }
        return try HandlerResult.permission(values, handler: "can_leave of '\(node.id)'")
    }

    /// `run_handler`'s first three arguments, all a handler of the node's own entry without `info` gets.
    private static func pushNodeArguments(
        _ field: HandlerName, of node: PinnedNodeStrings, entry: Entry, onto arguments: LuaCallArguments, in state: LuaState
    ) throws(LuaError) {
        try node.pushID(onto: arguments, in: state)
        try node.push(field, onto: arguments, in: state)
        if let context = entry.contextTable { try arguments.push(context) } else { arguments.pushNil() }
    }

    /// The script's interceptors, in turn; with none, no Lua runs.
    func intercept(_ request: RouteRequest) throws -> InterceptionDecision {
        guard app.rules.hasInterceptors else { return .pass }
        return try decide(request, by: try module.runInterceptors)
    }

    /// The guard of the node `id`, asked by the router about a route on its way.
    private func runGuard(of id: NodeID, _ request: RouteRequest) throws -> InterceptionDecision {
        try decide(request, by: try module.runGuard, first: .string(id))
    }

    /// Calls one of the module's deciders (`run_interceptors`, `run_guard`) with the request as a
    /// table, after `first` when there is one, and reads its verdict.
    private func decide(_ request: RouteRequest, by decider: LuaValue, first: LuaValue? = nil) throws -> InterceptionDecision {
        var requestFields = request.url?.urlFields ?? [:]
        requestFields[.string("destination")] = .array(request.destination.entries(from: request.from).map(\.luaValue))
        requestFields[.string("from")] = .array(request.from.map(\.luaValue))
        if let step = request.step { requestFields[.string("step")] = step.luaValue }
        if let original = request.redirectedFrom { requestFields[.string("redirected_from")] = original.luaValue }
        requestFields[.string("dry_run")] = .boolean(request.isDryRun)
        let values = try runner.runHandler(decider, (first.map { [$0] } ?? []) + [.table(requestFields)])
        let decision = try Self.redirectByURL(values) ?? HandlerResult.decision(values)
        switch decision {
        case .redirect, .redirectToURL:
            if values.count > 2, values[2] == .boolean(true), !request.isDryRun {
                // portolan.redirect(dest, { resume = true }): where the route was going waits for
                // resume(); a plan only reports the redirect.
                session.pendingResume = PendingResume(request)
            }
        case .pass, .deny:
            break
        }
        return decision
    }

    /// A guard's or interceptor's `portolan.redirect("/login")`: a redirect to the URL, which the
    /// router resolves as a route to it (redirect rules, patterns), not the id of an anywhere
    /// node. Nil for any other decision.
    private static func redirectByURL(_ values: [LuaValue]) -> InterceptionDecision? {
        guard values.first == .string("redirect"), values.count > 1, case .string(let url) = values[1],
              ParsedURL.isURL(url) else { return nil }
        return .redirectToURL(url)
    }
}
