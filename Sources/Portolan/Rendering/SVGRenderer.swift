/// Draws a graph as a self-contained SVG 1.1 document: no external tool, font or script.
///
/// Every node is a `<g class="node screen|switch [anywhere] [selected] [active] …" data-id="…">`
/// holding its box and text (live-tree drawings add `data-key`); every edge a
/// `<path class="edge [selected] [live] [active] …" data-from="…" data-to="…">`. A browser or a
/// test finds nodes with `[data-id]` (legend samples share the classes, not the attribute). Colours
/// come from the embedded stylesheet, keyed on those classes, so a `GraphStyle` can restyle
/// anything by adding classes and CSS; presentation attributes repeat the basics for viewers
/// without CSS. Coordinates are whole pixels from `TreeLayout`: the same drawing gives the same
/// bytes.
enum SVGRenderer {
    static let baseStylesheet = """
    .portolan-graph { font-family: Helvetica, Arial, sans-serif; font-size: 12px; }
    .portolan-graph .node rect { fill: #ffffff; stroke: #495057; stroke-width: 1.2; }
    .portolan-graph .node.switch rect { fill: #e7f5ff; stroke: #1c7ed6; }
    .portolan-graph .node.anywhere rect { stroke-dasharray: 5 3; }
    .portolan-graph .node.active rect { fill: #ffe8cc; stroke: #d9480f; stroke-width: 2.5; }
    .portolan-graph .node .label { fill: #212529; }
    .portolan-graph .node.active .label { font-weight: bold; }
    .portolan-graph .node .tag { font-size: 10px; font-style: italic; fill: #1c7ed6; }
    .portolan-graph .node .detail { font-size: 10px; fill: #495057; font-family: monospace; }
    .portolan-graph .edge { fill: none; stroke: #868e96; stroke-width: 1.2; }
    .portolan-graph .edge.selected { stroke: #495057; stroke-width: 2.2; }
    .portolan-graph .edge.live { stroke-dasharray: 4 3; }
    .portolan-graph .edge.active { stroke: #d9480f; stroke-width: 3; }
    .portolan-graph .frame { fill: none; stroke: #868e96; stroke-dasharray: 6 4; }
    .portolan-graph .frame-label, .portolan-graph .legend-title { fill: #868e96; font-size: 11px; }
    .portolan-graph .heading { font-size: 14px; font-weight: bold; fill: #212529; }
    .portolan-graph .legend text { fill: #495057; font-size: 11px; }
    """

    private static let legendRow = 20
    private static let headingHeight = 26

    static func render(_ drawing: GraphDrawing) -> String {
        let margin = TreeLayout.margin
        let top = margin + (drawing.title == nil ? 0 : headingHeight)
        let layout = TreeLayout(drawing, origin: (margin, top))
        let legend = legendItems(drawing)
        let extent = layout.extent
        let legendTop = max(extent.bottom, top) + 2 * margin
        let legendWidth = legend.map { 48 + TreeLayout.textWidth($0.label, fontSize: 11) }.max() ?? 0
        let width = max(extent.right, margin + legendWidth) + margin
        let height = legendTop + 18 + legend.count * legendRow + margin

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"portolan-graph \(drawing.source.rawValue)\""
        out += " width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        out += "<title>\(Escaping.xml(drawing.title ?? "Portolan navigation graph"))</title>\n"
        out += "<style type=\"text/css\"><![CDATA[\n\(baseStylesheet)\n\(cdataSafe(drawing.stylesheet))\n]]></style>\n"
        out += "<defs>\n"
        out += marker("portolan-arrow", color: "#868e96")
        out += marker("portolan-arrow-active", color: "#d9480f")
        out += "</defs>\n"
        out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>\n"
        if let title = drawing.title {
            out += "<text class=\"heading\" x=\"\(margin)\" y=\"\(margin + 14)\">\(Escaping.xml(title))</text>\n"
        }
        if let frame = layout.anywhereFrame {
            out += "<g class=\"anywhere-forest\">\n"
            out += "<rect class=\"frame\" x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" rx=\"6\" fill=\"none\" stroke=\"#868e96\" stroke-dasharray=\"6 4\"/>\n"
            out += "<text class=\"frame-label\" x=\"\(frame.x + 8)\" y=\"\(frame.y + 14)\">anywhere</text>\n"
            out += "</g>\n"
        }
        out += "<g class=\"edges\">\n"
        for edge in drawing.edges {
            out += path(for: edge, in: drawing, layout: layout)
        }
        out += "</g>\n<g class=\"nodes\">\n"
        for (index, node) in drawing.nodes.enumerated() {
            out += group(for: node, box: layout.boxes[index], in: drawing)
        }
        out += "</g>\n"
        out += legendGroup(legend, top: legendTop, left: margin)
        return out + "</svg>\n"
    }

    // MARK: Pieces

    private static func marker(_ id: String, color: String) -> String {
        "<marker id=\"\(id)\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\">"
            + "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"\(color)\"/></marker>\n"
    }

    private static func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(Escaping.xml(value))\""
    }

    private static func path(for edge: GraphDrawing.Edge, in drawing: GraphDrawing, layout: TreeLayout) -> String {
        let from = layout.boxes[edge.from], to = layout.boxes[edge.to]
        let d: String
        if edge.from == edge.to {
            // A node entered on top of itself (reachable from anywhere): a loop on its right.
            let x = from.right, y = from.y + from.height / 2
            d = "M\(x),\(y - 6) C\(x + 30),\(y - 24) \(x + 30),\(y + 24) \(x),\(y + 6)"
        } else if edge.isLive {
            let x1 = from.right, y1 = from.y + from.height / 2
            let x2 = to.x, y2 = to.y + to.height / 2
            let middle = (x1 + x2) / 2
            d = "M\(x1),\(y1) C\(middle),\(y1) \(middle),\(y2) \(x2),\(y2)"
        } else {
            let x1 = from.centerX, y1 = from.bottom
            let x2 = to.centerX, y2 = to.y
            let middle = (y1 + y2) / 2
            d = "M\(x1),\(y1) C\(x1),\(middle) \(x2),\(middle) \(x2),\(y2)"
        }
        let arrow = edge.isOnActivePath ? "portolan-arrow-active" : "portolan-arrow"
        return "<path" + attribute("class", drawing.classList(of: edge).joined(separator: " "))
            + attribute("data-from", drawing.nodes[edge.from].key) + attribute("data-to", drawing.nodes[edge.to].key)
            + " d=\"\(d)\" fill=\"none\" stroke=\"#868e96\" marker-end=\"url(#\(arrow))\"/>\n"
    }

    private static func group(for node: GraphDrawing.Node, box: TreeLayout.Box, in drawing: GraphDrawing) -> String {
        var out = "<g" + attribute("class", drawing.classList(of: node).joined(separator: " "))
            + attribute("data-id", node.id)
        if drawing.source == .live { out += attribute("data-key", node.key) }
        out += ">\n"
        let tooltip = ([node.label] + node.details).joined(separator: "\n")
        out += "<title>\(Escaping.xml(tooltip))</title>\n"
        let radius = node.kind == .switch ? 10 : 2
        out += "<rect x=\"\(box.x)\" y=\"\(box.y)\" width=\"\(box.width)\" height=\"\(box.height)\" rx=\"\(radius)\" fill=\"#ffffff\" stroke=\"#495057\""
        if node.isAnywhere { out += " stroke-dasharray=\"5 3\"" }
        out += "/>\n"
        var baseline = box.y + TreeLayout.paddingY + TreeLayout.lineHeight - 4
        out += "<text class=\"label\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">\(Escaping.xml(node.label))</text>\n"
        if node.kind == .switch {
            baseline += TreeLayout.lineHeight
            out += "<text class=\"tag\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">switch</text>\n"
        }
        for line in node.details {
            baseline += TreeLayout.lineHeight
            out += "<text class=\"detail\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">\(Escaping.xml(line))</text>\n"
        }
        return out + "</g>\n"
    }

    private enum Sample {
        case node(String), edge(String), none
    }

    private static func legendItems(_ drawing: GraphDrawing) -> [(sample: Sample, label: String)] {
        var items: [(Sample, String)] = [
            (.node("node screen"), "screen"),
            (.node("node switch"), "switch node (manages its children)"),
            (.node("node screen anywhere"), "reachable from anywhere"),
            (.edge("edge selected"), drawing.source == .live ? "active child of a switch node" : "initial child of a switch node"),
        ]
        if drawing.source == .live || !drawing.activePath.isEmpty {
            items.append((.node("node screen active"), "active path"))
        }
        if drawing.edges.contains(where: \.isLive) {
            items.append((.edge("edge live active"), "entered on top (not declared)"))
        }
        for item in drawing.legend {
            let classes = GraphDrawing.sanitized([item.className])
            items.append((.node((["node", "screen"] + classes).joined(separator: " ")), item.label))
        }
        items += drawing.notes.map { (.none, $0) }
        return items
    }

    private static func legendGroup(_ items: [(sample: Sample, label: String)], top: Int, left: Int) -> String {
        var out = "<g class=\"legend\">\n<text class=\"legend-title\" x=\"\(left)\" y=\"\(top + 11)\">legend</text>\n"
        for (offset, item) in items.enumerated() {
            let y = top + 18 + offset * legendRow
            switch item.sample {
            case .node(let classes):
                let dashed = classes.contains("anywhere") ? " stroke-dasharray=\"5 3\"" : ""
                let radius = classes.contains("switch") ? 5 : 2
                out += "<g class=\"legend-sample \(classes)\"><rect x=\"\(left)\" y=\"\(y)\" width=\"36\" height=\"14\" rx=\"\(radius)\" fill=\"#ffffff\" stroke=\"#495057\"\(dashed)/></g>\n"
            case .edge(let classes):
                out += "<path class=\"\(classes)\" d=\"M\(left),\(y + 7) L\(left + 36),\(y + 7)\" fill=\"none\" stroke=\"#868e96\"/>\n"
            case .none:
                break
            }
            out += "<text x=\"\(left + 46)\" y=\"\(y + 11)\">\(Escaping.xml(item.label))</text>\n"
        }
        return out + "</g>\n"
    }

    /// A stylesheet cannot end the CDATA section it sits in.
    private static func cdataSafe(_ css: String) -> String {
        css.replacing("]]>", with: "]]]]><![CDATA[>")
    }
}
