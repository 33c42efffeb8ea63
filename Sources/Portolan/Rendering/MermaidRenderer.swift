/// Writes a graph as a Mermaid flowchart.
///
/// Node ids may hold anything, and Mermaid reserves words (`end`) and punctuation, so each node is
/// named `n0`, `n1`… in drawing order and its real id goes in the quoted, escaped label. Switch
/// nodes are rounded; initial (or live active) children are joined by thick links (`==>`); nodes
/// reachable from anywhere sit in an `anywhere` subgraph. Classes `switch`, `anywhere` and `active`
/// have class definitions; a style's own node classes are attached with `class` lines and left to
/// the page's CSS (Mermaid cannot attach classes to links, so edge classes are not written).
enum MermaidRenderer {
    static func render(_ drawing: GraphDrawing) -> String {
        var lines: [String] = []
        if let title = drawing.title {
            lines += ["---", "title: \(Escaping.jsonString(title))", "---"]
        }
        lines.append("flowchart TD")
        let anywhere = DOTRenderer.anywhereMembers(drawing)
        let anywhereSet = Set(anywhere)
        for index in drawing.nodes.indices where !anywhereSet.contains(index) {
            lines.append("  " + declaration(index, drawing))
        }
        if !anywhere.isEmpty {
            lines.append("  subgraph anywhere [\"anywhere\"]")
            for index in drawing.nodes.indices where anywhereSet.contains(index) {
                lines.append("    " + declaration(index, drawing))
            }
            lines.append("  end")
        }
        var activeLinks: [String] = []
        for (offset, edge) in drawing.edges.enumerated() {
            let arrow = edge.isPush ? "-. push .->" : edge.isLive ? "-.->" : edge.isSelected ? "==>" : "-->"
            lines.append("  n\(edge.from) \(arrow) n\(edge.to)")
            if edge.isOnActivePath { activeLinks.append(String(offset)) }
        }
        lines.append("  classDef switch fill:#e7f5ff,stroke:#1c7ed6")
        lines.append("  classDef anywhere stroke-dasharray:5 5")
        lines.append("  classDef active fill:#ffe8cc,stroke:#d9480f,stroke-width:3px")
        // Built-in classes first, then the style's in the order they first appear.
        var members: [String: [Int]] = [:]
        var order = ["switch", "anywhere", "active"]
        for (index, node) in drawing.nodes.enumerated() {
            var classes: [String] = []
            if node.kind == .switch { classes.append("switch") }
            if node.isAnywhere { classes.append("anywhere") }
            if node.isOnActivePath { classes.append("active") }
            for name in classes + node.classes {
                if !order.contains(name) { order.append(name) }
                members[name, default: []].append(index)
            }
        }
        for name in order {
            guard let indices = members[name] else { continue }
            lines.append("  class \(indices.map { "n\($0)" }.joined(separator: ",")) \(name)")
        }
        if !activeLinks.isEmpty {
            lines.append("  linkStyle \(activeLinks.joined(separator: ",")) stroke:#d9480f,stroke-width:3px")
        }
        if !drawing.notes.isEmpty {
            // A box of its own, apart from the tree: what holds for the whole graph.
            lines.append("  notes[\"" + drawing.notes.map(Escaping.mermaid).joined(separator: "<br/>") + "\"]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func declaration(_ index: Int, _ drawing: GraphDrawing) -> String {
        let node = drawing.nodes[index]
        var label = Escaping.mermaid(node.label)
        for line in node.lines { label += "<br/>" + Escaping.mermaid(line) }
        return node.kind == .switch ? "n\(index)(\"\(label)\")" : "n\(index)[\"\(label)\"]"
    }
}
