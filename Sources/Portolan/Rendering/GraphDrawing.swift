/// What every renderer draws: a forest of boxes and the edges between them, in a fixed order.
///
/// Two things become a drawing:
/// - the **declared graph** (`GraphDrawing(graph:live:style:)`): every declared node once, in
///   declaration order, the nodes reachable from anywhere as a separate forest; a live tree, when
///   given, is laid over it by id: the nodes and edges of its active path are marked active, and a
///   step of the path onto a node reachable from anywhere becomes an extra `live` edge;
/// - the **live tree** (`GraphDrawing(tree:style:)`): the nodes that exist now, with their entries'
///   contexts, nodes reachable from anywhere drawn where they were entered.
///
/// A screen's declared pushes (`NodeSpec.pushes`) are `push` edges of the declared graph, beside
/// its tree edges; the active path stepping along one marks it active.
///
/// Every format renders a drawing the same way whatever it came from, so `:graph` in the REPL,
/// `portolan graph` and a coverage report share one code path per format.
struct GraphDrawing: Sendable, Equatable {
    enum Source: String, Sendable {
        case declared, live
    }

    struct Node: Sendable, Equatable {
        /// Unique in the drawing: the node id for the declared graph; for the live tree, the
        /// indices from the root (`0`, `0.1`, `0.1.0`), since an id may appear twice there.
        var key: String
        var id: NodeID
        /// The text of the box: the id, or the entry's canonical text in the live tree.
        var label: String
        var kind: NodeKind
        var parent: Int?
        var children: [Int]
        /// The declared initial child of a switch node, or the live active child.
        var selectedChild: Int?
        var isAnywhere: Bool
        /// Managed by its parent switch node (live tree only).
        var isManaged: Bool
        var isOnActivePath: Bool
        /// Whether the parent's selected child is this node.
        var isSelected: Bool
        /// Its URL route patterns, its rules and where its guard redirects (`GraphStyle`).
        var routes: [String] = []
        var rules: [String] = []
        var guardRedirects: [String] = []
        /// The caller's own extra lines (`GraphStyle.details`).
        var details: [String]
        var classes: [String]

        /// The lines under the label in every format but JSON: the routes, the rules in
        /// brackets (`[keep, guard → /login]`), then the caller's details.
        var lines: [String] {
            let marks = rules.map { rule in
                rule == "guard" && !guardRedirects.isEmpty ? "guard → " + guardRedirects.joined(separator: " | ") : rule
            }
            return routes + (marks.isEmpty ? [] : ["[" + marks.joined(separator: ", ") + "]"]) + details
        }
    }

    struct Edge: Sendable, Equatable {
        var from: Int
        var to: Int
        /// To the parent's initial (declared) or active (live) child.
        var isSelected: Bool
        var isOnActivePath: Bool
        /// Not declared: the active path stepped onto a node reachable from anywhere.
        var isLive: Bool
        /// A declared push: the node may be pushed on top of this screen, any number of times.
        var isPush = false
        var classes: [String]
    }

    let source: Source
    /// Nodes in drawing order: depth-first from the root, then the anywhere forest.
    private(set) var nodes: [Node] = []
    /// Parent → child edges in drawing order, then push edges, then live edges.
    private(set) var edges: [Edge] = []
    /// The main tree's root (index 0).
    let root: Int = 0
    /// Roots of the forest of nodes reachable from anywhere (declared graph only).
    private(set) var anywhereRoots: [Int] = []
    /// The active path as canonical entry text; empty when nothing live is drawn.
    private(set) var activePath: [String] = []
    let title: String?
    let stylesheet: String
    let legend: [GraphLegendItem]
    /// The app's own rules (declared graph only).
    let app: GraphAppRules
    /// The caller's lines about the graph (an app's flows).
    let styleNotes: [String]
    /// What every format but JSON shows under the drawing: the app's rules, then the caller's notes.
    var notes: [String] { app.lines + styleNotes }

    // MARK: Declared graph

    /// The declared graph, optionally with a live tree's active path laid over it.
    init(graph: NavigationGraph, live: RoutingTree? = nil, style: GraphStyle = GraphStyle()) {
        source = .declared
        title = style.title
        stylesheet = style.stylesheet
        legend = style.legend
        app = style.app
        styleNotes = style.notes
        let activeIDs = live.map { Set($0.activePath.map(\.id)) } ?? []
        var index: [NodeID: Int] = [:]
        addDeclared(graph.rootID, parent: nil, graph: graph, activeIDs: activeIDs, style: style, index: &index)
        for id in graph.anywhereIDs where index[id] == nil {
            if let added = addDeclared(id, parent: nil, graph: graph, activeIDs: activeIDs, style: style, index: &index) {
                anywhereRoots.append(added)
            }
        }
        var edgeInto: [Int?] = Array(repeating: nil, count: nodes.count)
        for position in nodes.indices {
            if let parent = nodes[position].parent {
                edgeInto[position] = edges.count
                edges.append(Self.edge(from: parent, to: position, live: false, onPath: false, nodes: nodes, style: style))
            }
        }
        var pushEdges: [GraphEdgeID: Int] = [:]
        for position in nodes.indices {
            for pushed in graph[nodes[position].id]?.pushes ?? [] {
                // A declared child pushed again is drawn once, as the child it is.
                guard let target = index[pushed], nodes[target].parent != position else { continue }
                pushEdges[GraphEdgeID(from: nodes[position].id, to: pushed)] = edges.count
                var edge = Self.edge(from: position, to: target, live: false, onPath: false, nodes: nodes, style: style)
                edge.isPush = true
                edge.isSelected = false
                edges.append(edge)
            }
        }
        guard let live else { return }
        activePath = live.activePath.map(\.description)
        let path = live.activePath.map(\.id)
        var seen: Set<GraphEdgeID> = []
        for (from, to) in zip(path, path.dropFirst()) {
            guard let a = index[from], let b = index[to] else { continue }
            if nodes[b].parent == a, let edge = edgeInto[b] {
                edges[edge].isOnActivePath = true
            } else if let edge = pushEdges[GraphEdgeID(from: from, to: to)] {
                edges[edge].isOnActivePath = true
            } else if seen.insert(GraphEdgeID(from: from, to: to)).inserted {
                edges.append(Self.edge(from: a, to: b, live: true, onPath: true, nodes: nodes, style: style))
            }
        }
    }

    @discardableResult
    private mutating func addDeclared(
        _ id: NodeID, parent: Int?, graph: NavigationGraph, activeIDs: Set<NodeID>, style: GraphStyle,
        index: inout [NodeID: Int]
    ) -> Int? {
        // The graph validated ids as unique; the check only guards against a foreign graph.
        guard let declaration = graph[id], index[id] == nil else { return nil }
        let position = nodes.count
        index[id] = position
        let parentDeclaration = parent.flatMap { graph[nodes[$0].id] }
        nodes.append(Node(
            key: id, id: id, label: id, kind: declaration.kind, parent: parent, children: [],
            selectedChild: nil, isAnywhere: declaration.isAnywhere, isManaged: false,
            isOnActivePath: activeIDs.contains(id),
            isSelected: parentDeclaration?.initialActive == id,
            routes: style.routes(id), rules: style.rules(id), guardRedirects: style.guardRedirects(id),
            details: style.details(id), classes: Self.sanitized(style.nodeClasses(id))))
        for child in declaration.children {
            if let added = addDeclared(child, parent: position, graph: graph, activeIDs: activeIDs, style: style, index: &index) {
                nodes[position].children.append(added)
                if declaration.initialActive == child { nodes[position].selectedChild = added }
            }
        }
        return position
    }

    // MARK: Live tree

    /// The live tree: what exists now, the active path marked.
    init(tree: RoutingTree, style: GraphStyle = GraphStyle()) {
        source = .live
        title = style.title
        stylesheet = style.stylesheet
        legend = style.legend
        app = GraphAppRules()
        styleNotes = style.notes
        activePath = tree.activePath.map(\.description)
        addLive(tree.root, key: "0", parent: nil, isSelected: true, onPath: true, graph: tree.graph, style: style)
        for position in nodes.indices {
            if let parent = nodes[position].parent {
                edges.append(Self.edge(
                    from: parent, to: position, live: false, onPath: nodes[position].isOnActivePath,
                    nodes: nodes, style: style))
            }
        }
    }

    private mutating func addLive(
        _ live: LiveNode, key: String, parent: Int?, isSelected: Bool, onPath: Bool,
        graph: NavigationGraph, style: GraphStyle
    ) {
        let id = live.entry.id
        let position = nodes.count
        nodes.append(Node(
            key: key, id: id, label: live.entry.description, kind: live.kind, parent: parent, children: [],
            selectedChild: nil, isAnywhere: graph[id]?.isAnywhere ?? false, isManaged: live.isManaged,
            isOnActivePath: onPath, isSelected: parent != nil && isSelected,
            routes: style.routes(id), rules: style.rules(id), guardRedirects: style.guardRedirects(id),
            details: style.details(id), classes: Self.sanitized(style.nodeClasses(id))))
        for (offset, child) in live.children.enumerated() {
            let childPosition = nodes.count
            nodes[position].children.append(childPosition)
            let selected = offset == live.activeIndex
            if selected { nodes[position].selectedChild = childPosition }
            addLive(child, key: key + "." + String(offset), parent: position, isSelected: selected,
                    onPath: onPath && selected, graph: graph, style: style)
        }
    }

    // MARK: Shared

    private static func edge(from: Int, to: Int, live: Bool, onPath: Bool, nodes: [Node], style: GraphStyle) -> Edge {
        let classes = sanitized(style.edgeClasses(GraphEdgeID(from: nodes[from].id, to: nodes[to].id)))
        return Edge(
            from: from, to: to, isSelected: !live && nodes[to].isSelected,
            isOnActivePath: onPath, isLive: live, classes: classes)
    }

    /// Class names as CSS, DOT and Mermaid all accept them: `[A-Za-z0-9_-]`, never empty, each once.
    static func sanitized(_ classes: [String]) -> [String] {
        var result: [String] = []
        for name in classes {
            let clean = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
                ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                    || scalar == "_" || scalar == "-" ? scalar : "-"
            }))
            if !clean.isEmpty, !result.contains(clean) { result.append(clean) }
        }
        return result
    }

    /// The built-in classes of a node, then the caller's.
    func classList(of node: Node) -> [String] {
        var list = ["node", node.kind.rawValue]
        if node.isAnywhere { list.append("anywhere") }
        if node.isManaged { list.append("managed") }
        if node.isSelected { list.append("selected") }
        if node.isOnActivePath { list.append("active") }
        return list + node.classes
    }

    func classList(of edge: Edge) -> [String] {
        var list = ["edge"]
        if edge.isSelected { list.append("selected") }
        if edge.isLive { list.append("live") }
        if edge.isPush { list.append("push") }
        if edge.isOnActivePath { list.append("active") }
        return list + edge.classes
    }
}
