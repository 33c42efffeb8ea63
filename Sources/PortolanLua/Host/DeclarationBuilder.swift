import Lua
import Portolan

/// The graph a script is declaring with `portolan.app`, built node by node as the module checks
/// them (`emit` in NodeDescription.lua): each node arrives after its children, and takes them off
/// the nodes built so far. No description of the tree is made in Lua or converted to `LuaValue`s
/// (issue 24: a 100,000-node app is held as the script's tables and the graph, with no copy between).
///
/// One builder per call of `portolan.app` (`ModuleBridge`'s `declaration`), so a declaration made
/// inside another (from a metamethod the checker ran) builds apart from it.
final class DeclarationBuilder {
    private var built: [NodeSpec] = []
    private var handlers: [NodeID: Set<HandlerName>] = [:]
    /// The first node that could not be read; the module hands over only what it checked, so
    /// this is its own fault, reported when the declaration finishes.
    private var fault: String?

    /// One checked node: `id, kind, active, child_count, handlers, routes, pushes, keep,
    /// back, launch, key, floor`, as NodeDescription.lua's `describe` emits them.
    func add(_ arguments: [LuaValue]) {
        guard fault == nil else { return }
        guard arguments.count >= 12, let id = arguments[0].stringValue, let count = arguments[3].intValue,
            let childCount = Int(exactly: count), childCount >= 0, childCount <= built.count
        else {
            fault = "the module handed the host a node it cannot read"
            return
        }
        // Copied into storage of their own, of their exact count: `Array(slice)` may share the
        // whole buffer, which `removeLast` would then copy (heaptrack: 21 MiB held twice at 100,000).
        var children: [NodeSpec] = []
        children.reserveCapacity(childCount)
        children.append(contentsOf: built[(built.count - childCount)...])
        built.removeLast(childCount)
        if built.capacity > 1_024 && built.count < built.capacity / 4 {
            // Gives back the room a wide node's children took, before the graph is built.
            var smaller: [NodeSpec] = []
            smaller.reserveCapacity(built.count)
            smaller.append(contentsOf: built)
            built = smaller
        }
        let mask = arguments[4].intValue ?? 0
        let names = HandlerName.allCases.enumerated().compactMap { bit, name in mask & (1 << bit) != 0 ? name : nil }
        if !names.isEmpty {
            handlers[id, default: []].formUnion(names)
        }
        var node = NodeSpec(
            id, kind: NodeKind(rawValue: arguments[1].stringValue ?? "screen") ?? .screen,
            active: arguments[2].stringValue, children: children, routes: Self.strings(arguments[5]),
            keepsStacks: arguments[7] == .boolean(true),
            back: arguments[8].stringValue.flatMap(TabBackBehavior.init(rawValue:)) ?? .none,
            pushes: Self.strings(arguments[6]), launch: arguments[9].stringValue.flatMap(LaunchMode.init(rawValue:)),
            key: Self.strings(arguments[10]))
        node.isFloor = arguments[11] == .boolean(true)
        node.routeOptions = RouteOptions(
            caseInsensitive: arguments[5][.string("case_insensitive")].boolValue,
            significantTrailingSlash: arguments[5][.string("significant_trailing_slash")].boolValue)
        built.append(node)
    }

    /// The declaration of the root and `anywhere` nodes reachable from anywhere, the last ones
    /// built; the builder is empty afterwards, so the nodes are held once, by the graph.
    func finish(anywhere: Int, options: AppOptions) throws(DeclarationError) -> GraphDeclaration {
        defer {
            built = []
            handlers = [:]
        }
        if let fault { throw DeclarationError(message: fault) }
        guard anywhere >= 0, built.count == anywhere + 1, let root = built.first else {
            throw DeclarationError(message: "the module handed the host \(built.count) trees for \(anywhere) anywhere nodes")
        }
        return try GraphDeclaration(
            root: root, anywhere: Array(built.dropFirst()), handlers: handlers,
            caseInsensitiveRoutes: options.caseInsensitiveRoutes, significantTrailingSlash: options.significantTrailingSlash,
            origins: options.origins, limits: options.limits)
    }

    /// A node's route patterns, pushed ids or key fields: one string, or a list of them read as
    /// `ipairs` reads it (a route list's named options are not patterns).
    private static func strings(_ value: LuaValue) -> [String] {
        if let text = value.stringValue { return [text] }
        guard let table = value.tableValue else { return [] }
        var strings: [String] = []
        while let text = table[.integer(Int64(strings.count + 1))]?.stringValue { strings.append(text) }
        return strings
    }
}
