/// Writes a graph as JSON, one node per line, in drawing order (declaration order for the
/// declared graph), so the same graph always gives the same bytes and diffs stay small.
///
/// ```json
/// {
///   "root": "root",
///   "nodes": [
///     {"id": "root", "kind": "switch", "parent": null, "children": ["a", "b"], "active": "a", "anywhere": false},
///     …
///   ],
///   "activePath": ["root", "a"]
/// }
/// ```
/// `active` is a switch node's initial child, as in the app script's `active =`. With a live tree,
/// each node also has `onActivePath`; `activePath` holds the path's entries as canonical text
/// (`movie {id=42}`), empty when nothing live was given. A node's URL route patterns are its
/// `routes`; its rules (`keep`, `back: history`, `guard`, `can_leave`, `context_task`) its `rules`;
/// where its guard redirects, when the source says so, its `guardRedirects`; a caller's extra lines
/// its `details`, and style classes its `classes`, each only when not empty. Edges with style
/// classes are listed under `edges`. The app's redirect rules (`redirects`: `from`, `to`), its
/// `queue` and its origins (`schemes`, `hosts`) are fields of the whole graph, as are its flows (`notes`).
///
/// A drawing of the live tree has the same shape, except that ids may repeat there, so each node
/// also has a unique `key` (`0.1.0`: child indices from the root), and `root`, `parent`,
/// `children` and `active` name keys; `entry` is the node's entry, `managed` whether its switch
/// node manages it.
enum JSONGraphRenderer {
    static func render(_ drawing: GraphDrawing) -> String {
        let live = drawing.source == .live
        let overlay = live || !drawing.activePath.isEmpty
        func ref(_ index: Int?) -> String {
            index.map { Escaping.jsonString(drawing.nodes[$0].key) } ?? "null"
        }
        func list(_ items: [String]) -> String {
            "[" + items.joined(separator: ", ") + "]"
        }
        var out = "{\n"
        out += "  \"root\": \(drawing.nodes.isEmpty ? "null" : ref(drawing.root)),\n"
        out += "  \"nodes\": ["
        for (index, node) in drawing.nodes.enumerated() {
            var fields: [String] = []
            if live { fields.append("\"key\": \(Escaping.jsonString(node.key))") }
            fields.append("\"id\": \(Escaping.jsonString(node.id))")
            if live { fields.append("\"entry\": \(Escaping.jsonString(node.label))") }
            fields.append("\"kind\": \(Escaping.jsonString(node.kind.rawValue))")
            fields.append("\"parent\": \(ref(node.parent))")
            fields.append("\"children\": \(list(node.children.map { ref($0) }))")
            fields.append("\"active\": \(node.kind == .switch ? ref(node.selectedChild) : "null")")
            fields.append("\"anywhere\": \(node.isAnywhere)")
            if live { fields.append("\"managed\": \(node.isManaged)") }
            if overlay { fields.append("\"onActivePath\": \(node.isOnActivePath)") }
            if !node.routes.isEmpty { fields.append("\"routes\": \(list(node.routes.map(Escaping.jsonString)))") }
            if !node.rules.isEmpty { fields.append("\"rules\": \(list(node.rules.map(Escaping.jsonString)))") }
            if !node.guardRedirects.isEmpty {
                fields.append("\"guardRedirects\": \(list(node.guardRedirects.map(Escaping.jsonString)))")
            }
            if !node.details.isEmpty { fields.append("\"details\": \(list(node.details.map(Escaping.jsonString)))") }
            if !node.classes.isEmpty { fields.append("\"classes\": \(list(node.classes.map(Escaping.jsonString)))") }
            out += (index == 0 ? "\n" : ",\n") + "    {" + fields.joined(separator: ", ") + "}"
        }
        out += drawing.nodes.isEmpty ? "],\n" : "\n  ],\n"
        let styledEdges = drawing.edges.filter { !$0.classes.isEmpty || $0.isLive || $0.isPush }
        if !styledEdges.isEmpty {
            out += "  \"edges\": ["
            for (offset, edge) in styledEdges.enumerated() {
                var fields = ["\"from\": \(ref(edge.from))", "\"to\": \(ref(edge.to))"]
                if edge.isLive { fields.append("\"live\": true") }
                if edge.isPush { fields.append("\"push\": true") }
                fields.append("\"classes\": \(list(edge.classes.map(Escaping.jsonString)))")
                out += (offset == 0 ? "\n" : ",\n") + "    {" + fields.joined(separator: ", ") + "}"
            }
            out += "\n  ],\n"
        }
        out += appFields(drawing.app)
        if !drawing.styleNotes.isEmpty {
            out += "  \"notes\": \(list(drawing.styleNotes.map(Escaping.jsonString))),\n"
        }
        out += "  \"activePath\": \(list(drawing.activePath.map(Escaping.jsonString)))\n"
        return out + "}\n"
    }

    /// The app's own rules, each a field of its own when there is any: `redirects` (`from`, `to`,
    /// both null for a rule written as a function), `queue`, `schemes`, `hosts`.
    private static func appFields(_ app: GraphAppRules) -> String {
        func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
        func text(_ value: String?) -> String { value.map(Escaping.jsonString) ?? "null" }
        var out = ""
        if !app.redirects.isEmpty {
            let rules = app.redirects.map { "{\"from\": \(text($0.from)), \"to\": \(text($0.to))}" }
            out += "  \"redirects\": \(list(rules)),\n"
        }
        if let queue = app.queue { out += "  \"queue\": \(Escaping.jsonString(queue)),\n" }
        if !app.schemes.isEmpty { out += "  \"schemes\": \(list(app.schemes.map(Escaping.jsonString))),\n" }
        if !app.hosts.isEmpty { out += "  \"hosts\": \(list(app.hosts.map(Escaping.jsonString))),\n" }
        return out
    }
}
