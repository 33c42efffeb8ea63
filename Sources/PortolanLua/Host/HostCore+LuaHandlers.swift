import Lua
import Portolan

/// A node's Lua handlers, guards and interceptors, as the router calls them inside a route's unit
/// of work: each is a direct call of the module's `run_handler` or `run_interceptors` on the
/// host's thread, run by the host's `LuaRunner`.
extension HostCore {
    /// The router's handlers for a node with these declared Lua handlers: only those it has, so a
    /// node without `leave` or `can_leave` costs the route nothing for them. Nil when it has none
    /// the router calls (a guard runs with the interceptors).
    func luaHandlers(of id: NodeID, declared: Set<HandlerName>) -> NodeHandlers? {
        var handlers = NodeHandlers()
        // Unowned: the core owns the router these are bound to.
        if declared.contains(.enter) {
            handlers.enter = { [unowned self] entry, info in try runHandler(.enter, of: id, entry: entry, info: info) }
        }
        if declared.contains(.leave) {
            handlers.leave = { [unowned self] entry, info in try runHandler(.leave, of: id, entry: entry, info: info) }
        }
        if declared.contains(.switch) {
            handlers.switchTo = { [unowned self] child, info in try runHandler(.switch, of: id, entry: child, info: info) }
        }
        if declared.contains(.canLeave) {
            handlers.canLeave = { [unowned self] entry in try canLeave(id, entry: entry) }
        }
        if declared.contains(.contextTask) {
            handlers.contextTask = { [unowned self] entry, destination in try runContextTask(of: id, entry: entry, destination: destination) }
        }
        let hasAny = handlers.enter != nil || handlers.leave != nil || handlers.switchTo != nil || handlers.canLeave != nil
            || handlers.contextTask != nil
        return hasAny ? handlers : nil
    }

    private func runHandler(_ field: HandlerName, of id: NodeID, entry: Entry, info: InstructionInfo) throws {
        session.currentDestination = info.destination
        let arguments: [LuaValue] = [
            .string(id), .string(field.rawValue), .string(entry.id), entry.contextTable ?? .nil,
            .string(info.instruction.description), info.url.map { .table($0.urlFields) } ?? .nil,
            // Lua counts from 1.
            .integer(Int64(info.index + 1)), .integer(Int64(info.count)), .boolean(info.animated),
        ]
        let values = try runner.runHandler(try module.runHandler, arguments)
        try HandlerResult.check(values, handler: "\(field.rawValue) of '\(id)'")
    }

    private func runContextTask(of id: NodeID, entry: Entry, destination: Destination) throws {
        session.currentDestination = destination
        let field = HandlerName.contextTask.rawValue
        let values = try runner.runHandler(
            try module.runHandler, [.string(id), .string(field), .string(entry.id), entry.contextTable ?? .nil])
        try HandlerResult.check(values, handler: "\(field) of '\(id)'")
    }

    private func canLeave(_ id: NodeID, entry: Entry) throws -> Bool {
        let values = try runner.runHandler(
            try module.runHandler, [.string(id), .string(HandlerName.canLeave.rawValue), .string(entry.id), entry.contextTable ?? .nil])
        return try HandlerResult.permission(values, handler: "can_leave of '\(id)'")
    }

    /// The script's interceptors and the guards on the route's way; with neither, no Lua runs.
    func intercept(_ request: RouteRequest) throws -> InterceptionDecision {
        guard app.rules.hasInterceptors || app.hasGuards else { return .pass }
        var requestFields = request.url?.urlFields ?? [:]
        requestFields[.string("destination")] = request.destination.luaValue
        requestFields[.string("from")] = .array(request.from.map(\.luaValue))
        if let step = request.step { requestFields[.string("step")] = step.luaValue }
        requestFields[.string("dry_run")] = .boolean(request.isDryRun)
        let values = try runner.runHandler(try module.runInterceptors, [.table(requestFields)])
        let decision = try redirectByURL(values) ?? HandlerResult.decision(values)
        if case .redirect = decision, values.count > 2, values[2] == .boolean(true), !request.isDryRun {
            // portolan.redirect(dest, { resume = true }): where the route was going waits for resume();
            // a plan only reports the redirect.
            session.pendingResume = PendingResume(request)
        }
        return decision
    }

    /// A guard's or interceptor's `portolan.redirect("/login")`: the URL resolved as a route to
    /// it is (redirect rules, patterns), not taken for the id of an anywhere node. Nil for any
    /// other decision.
    private func redirectByURL(_ values: [LuaValue]) throws -> InterceptionDecision? {
        guard values.first == .string("redirect"), values.count > 1, case .string(let url) = values[1],
              ParsedURL.isURL(url) else { return nil }
        switch resolve(url: url) {
        case .success(let resolution): return .redirect(resolution.destination)
        case .failure(let failure): throw HandlerError("a redirect names an invalid destination: \(failure.message)")
        }
    }
}
