/// A parent → child edge of the declared graph, by node ids.
public struct GraphEdgeID: Hashable, Sendable, CustomStringConvertible {
    public var from: NodeID
    public var to: NodeID

    public init(from: NodeID, to: NodeID) {
        self.from = from
        self.to = to
    }

    public var description: String { "\(from) -> \(to)" }
}

/// One extra row of the SVG legend: a sample box drawn with `className`, and what it means.
public struct GraphLegendItem: Sendable, Equatable {
    public var className: String
    public var label: String

    public init(className: String, label: String) {
        self.className = className
        self.label = label
    }
}

/// What a caller adds to a drawing: classes on nodes and edges, extra text under node labels,
/// CSS for the SVG, legend rows.
///
/// This is how other reports reuse the renderers: a coverage report marks the nodes and edges its
/// scenarios exercised with a class and ships the CSS that colours it; the `graph` command adds
/// each node's URL patterns (`routes`), its rules and where its guard redirects, and the app's own
/// rules (`app`). The renderers never interpret class names
/// beyond their own (`node`, `screen`, `switch`, `anywhere`, `active`, `selected`, `edge`, `live`).
public struct GraphStyle {
    /// Extra CSS classes of a node (SVG `class`, DOT `class`, Mermaid `class`, JSON `classes`).
    /// Characters outside `[A-Za-z0-9_-]` become `-`.
    public var nodeClasses: (NodeID) -> [String]
    /// Extra CSS classes of a parent → child edge (SVG, DOT, JSON).
    public var edgeClasses: (GraphEdgeID) -> [String]
    /// Extra lines shown under a node's label, after its routes and rules; empty for none.
    public var details: (NodeID) -> [String]
    /// A node's URL route patterns (`showingRoutes`): lines under its label, JSON `routes`.
    public var routes: (NodeID) -> [String] = { _ in [] }
    /// A node's rules (`showingRules`: `keep`, `back: history`, `guard`, …): in brackets under
    /// its label, JSON `rules`.
    public var rules: (NodeID) -> [String] = { _ in [] }
    /// Where a node's guard sends routes, when its source says so: after `guard →` in the
    /// brackets, JSON `guardRedirects`.
    public var guardRedirects: (NodeID) -> [String] = { _ in [] }
    /// What holds for the whole app: its redirect rules, queue and origins (`GraphAppRules`).
    public var app = GraphAppRules()
    /// CSS appended to the SVG's built-in stylesheet, after it, so it can override it.
    public var stylesheet: String
    /// Rows appended to the SVG legend.
    public var legend: [GraphLegendItem]
    /// A title: the SVG `<title>`, the DOT graph label, a Mermaid `title` front matter.
    public var title: String?
    /// Lines about the graph as a whole (an app's flows), shown under the drawing in every format.
    public var notes: [String] = []

    public init(
        nodeClasses: @escaping (NodeID) -> [String] = { _ in [] },
        edgeClasses: @escaping (GraphEdgeID) -> [String] = { _ in [] },
        details: @escaping (NodeID) -> [String] = { _ in [] },
        stylesheet: String = "",
        legend: [GraphLegendItem] = [],
        title: String? = nil
    ) {
        self.nodeClasses = nodeClasses
        self.edgeClasses = edgeClasses
        self.details = details
        self.stylesheet = stylesheet
        self.legend = legend
        self.title = title
    }

    /// A style that adds `className` to the given nodes and edges, e.g. the covered ones.
    public static func marking(
        nodes: Set<NodeID>, edges: Set<GraphEdgeID> = [], as className: String,
        stylesheet: String = "", legend: String? = nil
    ) -> GraphStyle {
        GraphStyle(
            nodeClasses: { nodes.contains($0) ? [className] : [] },
            edgeClasses: { edges.contains($0) ? [className] : [] },
            stylesheet: stylesheet,
            legend: legend.map { [GraphLegendItem(className: className, label: $0)] } ?? [])
    }
}
