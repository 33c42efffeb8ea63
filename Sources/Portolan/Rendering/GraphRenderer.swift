/// The formats `portolan graph` and the REPL's `:graph` write.
public enum GraphFormat: String, Sendable, CaseIterable {
    case text, dot, mermaid, json, svg
}

/// The one way into rendering from outside the engine: every format builds a `GraphDrawing` and hands it to
/// the format's renderer, all of them internal.
///
/// ```swift
/// GraphRenderer.render(graph, as: .svg)                          // the declared graph
/// GraphRenderer.render(graph, as: .dot, live: tree)              // … with the active path highlighted
/// GraphRenderer.render(tree, as: .mermaid)                       // the live tree (`:graph`)
/// GraphRenderer.render(graph, as: .svg, style: .marking(nodes: covered, as: "covered"))
/// GraphRenderer.activeTree(tree)                                 // the live tree as `tree()` prints it
/// ```
/// Output is deterministic (same input, same bytes) and linear in the number of nodes.
public enum GraphRenderer {
    /// The declared graph; with `live`, its active path laid over the graph by node id.
    public static func render(
        _ graph: NavigationGraph, as format: GraphFormat, live: RoutingTree? = nil, style: GraphStyle = GraphStyle()
    ) -> String {
        render(GraphDrawing(graph: graph, live: live, style: style), as: format)
    }

    /// The live tree: the nodes that exist now, with their contexts, the active path highlighted.
    public static func render(_ tree: RoutingTree, as format: GraphFormat, style: GraphStyle = GraphStyle()) -> String {
        render(GraphDrawing(tree: tree, style: style), as: format)
    }

    /// The live tree as the REPL's `tree()` and failure messages show it: indented, `*` on the active path, `·`
    /// on a switch node's selected child off it (see `TreeRenderer`).
    public static func activeTree(_ tree: RoutingTree) -> String {
        TreeRenderer.text(tree)
    }

    /// The mark on a switch node's selected child off the active path, in the live tree's text:
    /// what shows when the user switches back to that switch's child (a tab keeps its stack).
    public static let shownOffPathMark = "·"

    /// An SVG drawing without its XML declaration, to sit inline in an HTML page, where the
    /// declaration would be a bogus comment at best.
    public static func inlineSVG(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
        return String(svg[svg.index(after: end)...])
    }

    static func render(_ drawing: GraphDrawing, as format: GraphFormat) -> String {
        switch format {
        case .text: return TextGraphRenderer.render(drawing)
        case .dot: return DOTRenderer.render(drawing)
        case .mermaid: return MermaidRenderer.render(drawing)
        case .json: return JSONGraphRenderer.render(drawing)
        case .svg: return SVGRenderer.render(drawing)
        }
    }
}

extension GraphStyle {
    /// This style, with each node's declared URL route patterns shown.
    public func showingRoutes(of graph: NavigationGraph) -> GraphStyle {
        var style = self
        style.routes = { graph[$0]?.routes ?? [] }
        return style
    }

    /// The same style, with each node's rules in brackets under its label: `keep` for a switch
    /// node that keeps its children's stacks, `back: history` (or its other back behaviour) for
    /// one that back goes among its children, `floor` for a screen back never leaves, and the names
    /// `rules` gives (a scripting host's `guard`, `can_leave`,
    /// `context_task`), so every format shows what can stop or change a route; and, after
    /// `guard →`, where `guardRedirects` says the node's guard sends routes.
    public func showingRules(
        of graph: NavigationGraph, guardRedirects: [NodeID: [String]] = [:],
        _ rules: @escaping (NodeID) -> [String] = { _ in [] }
    ) -> GraphStyle {
        var style = self
        style.rules = { id in
            guard let node = graph[id] else { return rules(id) }
            return (node.keepsStacks ? ["keep"] : []) + (node.back == .none ? [] : ["back: \(node.back.rawValue)"])
                + (node.isFloor ? ["floor"] : []) + rules(id)
        }
        style.guardRedirects = { guardRedirects[$0] ?? [] }
        return style
    }
}
