import Lua
import Portolan

/// The graph a script declared with `portolan.app`, read from the plain description the module
/// builds (the module has already checked field types; this checks what only the whole graph shows).
struct GraphDeclaration {
    let graph: NavigationGraph
    /// For each node with Lua handlers, which ones.
    let handlers: [NodeID: Set<HandlerName>]
    /// Whether some node has a guard (routes then go through Lua interception).
    let hasGuards: Bool

    init(
        root: LuaValue, anywhere: LuaValue, caseInsensitiveRoutes: Bool = false, origins: URLOrigins = .any,
        limits: PathLimits = .engine
    ) throws(DeclarationError) {
        var handlers: [NodeID: Set<HandlerName>] = [:]
        let rootSpec = try Self.spec(root, handlers: &handlers)
        var anywhereSpecs: [NodeSpec] = []
        for node in anywhere.arrayValue ?? [] {
            anywhereSpecs.append(try Self.spec(node, handlers: &handlers))
        }
        do {
            graph = try NavigationGraph(
                root: rootSpec, anywhere: anywhereSpecs, caseInsensitiveRoutes: caseInsensitiveRoutes, origins: origins,
                limits: limits)
        } catch {
            throw DeclarationError(message: error.description)
        }
        self.handlers = handlers
        hasGuards = handlers.values.contains { $0.contains(.guard) }
    }

    private static func spec(_ value: LuaValue, handlers: inout [NodeID: Set<HandlerName>]) throws(DeclarationError) -> NodeSpec {
        guard let id = value["id"].stringValue else {
            throw DeclarationError(message: "a node has no id")
        }
        let kind = NodeKind(rawValue: value["kind"].stringValue ?? "screen") ?? .screen
        var children: [NodeSpec] = []
        for child in value["children"].arrayValue ?? [] {
            children.append(try spec(child, handlers: &handlers))
        }
        let names = (value["handlers"].arrayValue ?? []).compactMap { $0.stringValue.flatMap(HandlerName.init(rawValue:)) }
        if !names.isEmpty {
            handlers[id, default: []].formUnion(names)
        }
        let routes = (value["routes"].arrayValue ?? []).compactMap(\.stringValue)
        return NodeSpec(
            id, kind: kind, active: value["active"].stringValue, children: children, routes: routes,
            keepsStacks: value["keep"] == .boolean(true), backThroughHistory: value["back_history"] == .boolean(true),
            pushes: (value["pushes"].arrayValue ?? []).compactMap(\.stringValue),
            launch: value["launch"].stringValue.flatMap(LaunchMode.init(rawValue:)))
    }
}

/// Why `portolan.app` refused a graph.
struct DeclarationError: Error {
    let message: String
}
