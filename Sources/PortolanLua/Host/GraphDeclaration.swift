import Lua
import Portolan

/// The graph a script declared with `portolan.app`, from the nodes the module checked and handed
/// over one by one (`DeclarationBuilder`; the module has already checked field types, this checks
/// what only the whole graph shows).
struct GraphDeclaration {
    let graph: NavigationGraph
    /// For each node with Lua handlers, which ones.
    let handlers: [NodeID: Set<HandlerName>]
    /// Whether some node has a guard (routes then go through Lua interception).
    let hasGuards: Bool

    init(
        root: NodeSpec, anywhere: [NodeSpec], handlers: [NodeID: Set<HandlerName>], caseInsensitiveRoutes: Bool = false,
        significantTrailingSlash: Bool = false, origins: URLOrigins = .any, limits: PathLimits = .engine
    ) throws(DeclarationError) {
        do {
            graph = try NavigationGraph(
                root: root, anywhere: anywhere, caseInsensitiveRoutes: caseInsensitiveRoutes,
                significantTrailingSlash: significantTrailingSlash, origins: origins, limits: limits)
        } catch {
            throw DeclarationError(message: error.description)
        }
        self.handlers = handlers
        hasGuards = handlers.values.contains { $0.contains(.guard) }
    }
}

/// Why `portolan.app` refused a graph.
package struct DeclarationError: Error {
    package let message: String
}
