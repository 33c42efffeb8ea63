import Portolan

/// A node whose handlers are Lua functions of its node table, run by the host.
///
/// It keeps the router's time limit itself: a Lua handler can only wait through `portolan.wait`,
/// which the host cuts at the deadline, and an endless loop runs out of its instruction budget.
struct LuaNode: Enterable, Leavable, Switchable, KeepsOwnTimeLimit {
    weak let host: PortolanHost?
    let id: NodeID

    func enter(_ entry: Entry, info: InstructionInfo) async throws {
        try await liveHost().runHandler("enter", of: id, entry: entry, info: info)
    }

    func leave(_ entry: Entry, info: InstructionInfo) async throws {
        try await liveHost().runHandler("leave", of: id, entry: entry, info: info)
    }

    func switchTo(_ child: Entry, info: InstructionInfo) async throws {
        try await liveHost().runHandler("switch", of: id, entry: child, info: info)
    }

    func canLeave(_ entry: Entry) async throws -> Bool {
        try await liveHost().canLeave(id, entry: entry)
    }

    private func liveHost() throws -> PortolanHost {
        guard let host else { throw HandlerError("the Lua host of '\(id)' is gone") }
        return host
    }
}

/// Runs the script's interceptors (`portolan.intercept`) and node guards before every route.
struct LuaInterceptor: RouteInterceptor, KeepsOwnTimeLimit {
    weak let host: PortolanHost?

    func intercept(_ request: RouteRequest) async throws -> InterceptionDecision {
        guard let host else { return .pass }
        return try await host.intercept(request)
    }
}
