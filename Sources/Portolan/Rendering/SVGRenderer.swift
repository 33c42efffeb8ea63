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
    .portolan-graph .edge.push { stroke-dasharray: 1 3; }
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
        let legendTop = max(layout.extent.bottom, top) + 2 * margin
        var bounds = SVGBounds()
        var body = ""
        if let title = drawing.title {
            body += "<text class=\"heading\" x=\"\(margin)\" y=\"\(margin + 14)\">\(Escaping.xml(title))</text>\n"
            bounds.includeText(title, x: margin, baseline: margin + 14, fontSize: 14, face: .bold)
        }
        if let frame = layout.anywhereFrame {
            body += anywhereFrame(frame, bounds: &bounds)
        }
        body += "<g class=\"edges\">\n"
        for edge in drawing.edges {
            body += path(for: edge, in: drawing, layout: layout, bounds: &bounds)
        }
        body += "</g>\n<g class=\"nodes\">\n"
        for (index, node) in drawing.nodes.enumerated() {
            body += group(for: node, box: layout.boxes[index], in: drawing, bounds: &bounds)
        }
        body += "</g>\n"
        body += legendGroup(legendItems(drawing), top: legendTop, left: margin, bounds: &bounds)
        return header(drawing, viewBox: bounds.viewBox(margin: margin)) + body + "</svg>\n"
    }

    /// The document up to the drawing: no width or height, only a `viewBox` from what is drawn,
    /// so the picture scales to its container (never beyond its natural size: the `max-width`).
    private static func header(_ drawing: GraphDrawing, viewBox: (x: Int, y: Int, width: Int, height: Int)) -> String {
        let box = "\(viewBox.x) \(viewBox.y) \(viewBox.width) \(viewBox.height)"
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"portolan-graph \(drawing.source.rawValue)\""
        out += " viewBox=\"\(box)\" preserveAspectRatio=\"xMidYMin meet\" style=\"max-width: \(viewBox.width)px; height: auto\">\n"
        out += "<title>\(Escaping.xml(drawing.title ?? "Portolan navigation graph"))</title>\n"
        out += "<style type=\"text/css\"><![CDATA[\n\(baseStylesheet)\n\(cdataSafe(drawing.stylesheet))\n]]></style>\n"
        out += "<defs>\n"
        out += marker("portolan-arrow", color: "#868e96")
        out += marker("portolan-arrow-active", color: "#d9480f")
        out += "</defs>\n"
        out += "<rect class=\"background\" x=\"\(viewBox.x)\" y=\"\(viewBox.y)\" width=\"\(viewBox.width)\" height=\"\(viewBox.height)\" fill=\"#ffffff\"/>\n"
        return out
    }

    // MARK: Pieces

    private static func marker(_ id: String, color: String) -> String {
        "<marker id=\"\(id)\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\">"
            + "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"\(color)\"/></marker>\n"
    }

    private static func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(Escaping.xml(value))\""
    }

    /// The dashed frame around the nodes reachable from anywhere, and its label.
    private static func anywhereFrame(_ frame: TreeLayout.Box, bounds: inout SVGBounds) -> String {
        bounds.include(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        bounds.includeText("anywhere", x: frame.x + 8, baseline: frame.y + 14, fontSize: 11)
        return "<g class=\"anywhere-forest\">\n"
            + "<rect class=\"frame\" x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" rx=\"6\" fill=\"none\" stroke=\"#868e96\" stroke-dasharray=\"6 4\"/>\n"
            + "<text class=\"frame-label\" x=\"\(frame.x + 8)\" y=\"\(frame.y + 14)\">anywhere</text>\n"
            + "</g>\n"
    }

    private static func path(for edge: GraphDrawing.Edge, in drawing: GraphDrawing, layout: TreeLayout, bounds: inout SVGBounds) -> String {
        let from = layout.boxes[edge.from], to = layout.boxes[edge.to]
        let d: String
        if edge.from == edge.to {
            // A node entered on top of itself (reachable from anywhere): a loop on its right,
            // inside its control points.
            let x = from.right, y = from.y + from.height / 2
            d = "M\(x),\(y - 6) C\(x + 30),\(y - 24) \(x + 30),\(y + 24) \(x),\(y + 6)"
            bounds.include(x: x, y: y - 24, width: 30, height: 48)
        } else if edge.isLive || edge.isPush {
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

    private static func group(
        for node: GraphDrawing.Node, box: TreeLayout.Box, in drawing: GraphDrawing, bounds: inout SVGBounds
    ) -> String {
        bounds.include(x: box.x, y: box.y, width: box.width, height: box.height)
        var out = "<g" + attribute("class", drawing.classList(of: node).joined(separator: " "))
            + attribute("data-id", node.id)
        if drawing.source == .live { out += attribute("data-key", node.key) }
        out += ">\n"
        let tooltip = ([node.label] + node.lines).joined(separator: "\n")
        out += "<title>\(Escaping.xml(tooltip))</title>\n"
        let radius = node.kind == .switch ? 10 : 2
        out += "<rect x=\"\(box.x)\" y=\"\(box.y)\" width=\"\(box.width)\" height=\"\(box.height)\" rx=\"\(radius)\" fill=\"#ffffff\" stroke=\"#495057\""
        if node.isAnywhere { out += " stroke-dasharray=\"5 3\"" }
        out += "/>\n"
        var baseline = box.y + TreeLayout.paddingY + TreeLayout.lineHeight - 4
        out += "<text class=\"label\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">\(Escaping.xml(node.label))</text>\n"
        // Any label may turn bold: a style's classes can make it so, as the active path's does.
        bounds.includeText(node.label, x: box.centerX, baseline: baseline, fontSize: TreeLayout.fontSize, face: .bold, anchor: .middle)
        if node.kind == .switch {
            baseline += TreeLayout.lineHeight
            out += "<text class=\"tag\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">switch</text>\n"
            bounds.includeText("switch", x: box.centerX, baseline: baseline, fontSize: 10, anchor: .middle)
        }
        for line in node.lines {
            baseline += TreeLayout.lineHeight
            out += "<text class=\"detail\" x=\"\(box.centerX)\" y=\"\(baseline)\" text-anchor=\"middle\">\(Escaping.xml(line))</text>\n"
            bounds.includeText(line, x: box.centerX, baseline: baseline, fontSize: 10, face: .monospace, anchor: .middle)
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
        if drawing.edges.contains(where: \.isPush) {
            items.append((.edge("edge push"), "pushed on top (may repeat)"))
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

    private static func legendGroup(
        _ items: [(sample: Sample, label: String)], top: Int, left: Int, bounds: inout SVGBounds
    ) -> String {
        var out = "<g class=\"legend\">\n<text class=\"legend-title\" x=\"\(left)\" y=\"\(top + 11)\">legend</text>\n"
        bounds.includeText("legend", x: left, baseline: top + 11, fontSize: 11)
        for (offset, item) in items.enumerated() {
            let y = top + 18 + offset * legendRow
            bounds.include(x: left, y: y, width: 36, height: 14)
            bounds.includeText(item.label, x: left + 46, baseline: y + 11, fontSize: 11)
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
