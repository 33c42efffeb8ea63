/// Draws a graph as an indented tree, like `tree(1)`.
///
/// ```
/// root [switch] (active: tabs) *
/// ├─ login
/// └─ tabs [switch] (active: wishlist) *
///    ├─ wishlist *
///    └─ watched
/// anywhere:
/// └─ alert
/// ```
/// `(pushes: …)` lists the nodes a screen pushes (`NodeSpec.pushes`). `*` marks the active path when a live tree is drawn. A drawing of the live tree reads like
/// `TreeRenderer.text`: no `(active: …)`, and `·` marks a selected child off the active path
/// (what shows when the user switches back to it). Details follow the label after two spaces; style classes are not shown.
enum TextGraphRenderer {
    static func render(_ drawing: GraphDrawing) -> String {
        var lines: [String] = []
        guard !drawing.nodes.isEmpty else { return "" }
        var pushes: [Int: [String]] = [:]
        for edge in drawing.edges where edge.isPush {
            pushes[edge.from, default: []].append(drawing.nodes[edge.to].label)
        }
        draw(drawing.root, in: drawing, pushes: pushes, prefix: "", connector: "", into: &lines)
        if !drawing.anywhereRoots.isEmpty {
            lines.append("anywhere:")
            for (offset, root) in drawing.anywhereRoots.enumerated() {
                let isLast = offset == drawing.anywhereRoots.count - 1
                draw(root, in: drawing, pushes: pushes, prefix: "", connector: isLast ? "└─ " : "├─ ", into: &lines)
            }
        }
        lines += drawing.notes
        return lines.joined(separator: "\n")
    }

    private static func draw(
        _ index: Int, in drawing: GraphDrawing, pushes: [Int: [String]], prefix: String, connector: String,
        into lines: inout [String]
    ) {
        let node = drawing.nodes[index]
        var line = prefix + connector + node.label
        if node.kind == .switch { line += " [switch]" }
        if drawing.source == .declared, let selected = node.selectedChild {
            line += " (active: \(drawing.nodes[selected].label))"
        }
        if let pushed = pushes[index] { line += " (pushes: \(pushed.joined(separator: ", ")))" }
        if node.isOnActivePath {
            line += " *"
        } else if drawing.source == .live, node.isSelected {
            line += " " + GraphRenderer.shownOffPathMark
        }
        if !node.lines.isEmpty { line += "  " + node.lines.joined(separator: "  ") }
        lines.append(line)
        let childPrefix = prefix + (connector == "├─ " ? "│  " : connector.isEmpty ? "" : "   ")
        for (offset, child) in node.children.enumerated() {
            let isLast = offset == node.children.count - 1
            draw(child, in: drawing, pushes: pushes, prefix: childPrefix, connector: isLast ? "└─ " : "├─ ", into: &lines)
        }
    }
}
