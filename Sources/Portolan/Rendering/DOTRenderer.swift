/// Writes a graph as Graphviz DOT.
///
/// Screens are boxes; switch nodes rounded boxes with a double border; nodes reachable from
/// anywhere are dashed, in a dashed `cluster_anywhere`; a declared push is a dotted edge labelled `push`. Edges to a switch node's initial (or live
/// active) child are bold; the active path is filled and drawn thick in orange. Every node name is
/// the quoted, escaped node key, so any id is safe; style classes go to DOT's `class` attribute,
/// which Graphviz copies into its SVG output.
enum DOTRenderer {
    static let activeColor = "#d9480f"
    static let activeFill = "#ffe8cc"

    static func render(_ drawing: GraphDrawing) -> String {
        var out = "digraph \"portolan\" {\n"
        out += "  graph [rankdir=TB, fontname=\"Helvetica\"" + (drawing.title.map { ", label=\(Escaping.dotString($0)), labelloc=t" } ?? "") + "];\n"
        out += "  node [shape=box, fontname=\"Helvetica\", fontsize=12];\n"
        out += "  edge [arrowsize=0.7];\n"
        let anywhere = Set(anywhereMembers(drawing))
        for index in drawing.nodes.indices where !anywhere.contains(index) {
            out += "  " + statement(for: index, in: drawing) + "\n"
        }
        if !anywhere.isEmpty {
            out += "  subgraph \"cluster_anywhere\" {\n"
            out += "    label=\"anywhere\"; style=dashed; color=\"#868e96\";\n"
            for index in drawing.nodes.indices where anywhere.contains(index) {
                out += "    " + statement(for: index, in: drawing) + "\n"
            }
            out += "  }\n"
        }
        if !drawing.notes.isEmpty {
            // A box of its own, apart from the tree: what holds for the whole graph.
            let text = drawing.notes.map { $0 + "\n" }.joined()
            out += "  \"notes\" [label=\(Escaping.dotString(text)), shape=note, class=\"notes\"];\n"
        }
        for edge in drawing.edges {
            var attributes: [String] = []
            var styles: [String] = []
            if edge.isSelected { styles.append("bold") }
            if edge.isLive { styles.append("dashed"); attributes.append("constraint=false") }
            if edge.isPush { styles.append("dotted"); attributes += ["constraint=false", "label=\"push\"", "fontsize=10"] }
            if !styles.isEmpty { attributes.append("style=\(Escaping.dotString(styles.joined(separator: ",")))") }
            if edge.isOnActivePath { attributes.append("color=\"\(activeColor)\", penwidth=2.5") }
            attributes.append("class=\(Escaping.dotString(drawing.classList(of: edge).joined(separator: " ")))")
            out += "  \(name(edge.from, drawing)) -> \(name(edge.to, drawing)) [\(attributes.joined(separator: ", "))];\n"
        }
        return out + "}\n"
    }

    private static func name(_ index: Int, _ drawing: GraphDrawing) -> String {
        Escaping.dotString(drawing.nodes[index].key)
    }

    private static func statement(for index: Int, in drawing: GraphDrawing) -> String {
        let node = drawing.nodes[index]
        var label = node.label
        if node.kind == .switch { label += "\n«switch»" }
        for line in node.lines { label += "\n" + line }
        var styles: [String] = []
        var attributes = ["label=\(Escaping.dotString(label))"]
        if node.kind == .switch {
            styles.append("rounded")
            attributes.append("peripheries=2")
        }
        if node.isAnywhere { styles.append("dashed") }
        if node.isOnActivePath {
            styles += ["filled", "bold"]
            attributes.append("fillcolor=\"\(activeFill)\", color=\"\(activeColor)\"")
        }
        if !styles.isEmpty { attributes.append("style=\(Escaping.dotString(styles.joined(separator: ",")))") }
        attributes.append("class=\(Escaping.dotString(drawing.classList(of: node).joined(separator: " ")))")
        return "\(name(index, drawing)) [\(attributes.joined(separator: ", "))];"
    }

    /// The nodes of the anywhere forest, roots and descendants.
    static func anywhereMembers(_ drawing: GraphDrawing) -> [Int] {
        var members: [Int] = []
        var stack = drawing.anywhereRoots.reversed() as [Int]
        while let index = stack.popLast() {
            members.append(index)
            stack += drawing.nodes[index].children.reversed()
        }
        return members
    }
}
