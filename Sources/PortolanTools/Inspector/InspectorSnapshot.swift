import Portolan

/// What the inspector's page shows, as the page receives it (`json`): the live tree drawn as SVG,
/// the declared graph beside it (the screens the session has not shown yet dimmed), the active
/// path, the event log and the last route. Each REPL update is folded in.
///
/// The REPL makes it and sends it, a line of JSON at a time, to the inspector's own process
/// (`portolan-inspector`), which serves it: the HTTP server and what it links stay out of the
/// `portolan` binary, so the REPL starts as fast without it.
public struct InspectorSnapshot: Sendable {
    /// The last route's destination, what it ran and how it ended.
    struct Route: Sendable {
        var requested: String?
        var settled: String?
        var instructions: [String]
        var failure: String?
        var rolledBack: [String]
    }

    /// Events the page keeps, newest last: a line that routes in a loop must not make every
    /// client receive thousands.
    public static let eventLimit = 300

    /// Counts updates, so a page (or a test) can tell a new state from the one it has.
    var sequence = 0
    var app = ""
    /// The live tree as inline SVG, the active path highlighted; empty while no app is declared.
    var svg = ""
    /// The declared graph as inline SVG, the active path laid over it and the nodes never shown
    /// classed `unvisited` (dimmed); empty while no app is declared.
    var graphSVG = ""
    /// The ids of the nodes the session has shown: on an active path, or entered or switched to.
    private(set) var visited: Set<NodeID> = []
    var activePath: [String] = []
    /// The newest events in their canonical text, a failure with its message
    /// (`RouterEvent.textWithMessage`).
    var events: [String] = []
    /// The number, from 1, of the first event in `events`: older ones were dropped.
    var firstEventNumber = 1
    var lastRoute: Route?

    public init() {}

    public mutating func apply(_ update: ReplUpdate) {
        sequence += 1
        app = update.appName
        visited.formUnion(update.events.compactMap(Self.shownID))
        if let tree = update.tree {
            svg = GraphRenderer.inlineSVG(GraphRenderer.render(tree, as: .svg))
            activePath = tree.activePath.map(\.description)
            visited.formUnion(tree.activePath.map(\.id))
            graphSVG = GraphRenderer.inlineSVG(GraphRenderer.render(
                tree.graph, as: .svg, live: tree, style: declaredStyle(tree.graph, rules: update.rules)))
        } else {
            svg = ""
            graphSVG = ""
            activePath = []
        }
        // A failure with its message, which the canonical text leaves out.
        events += update.events.map(\.textWithMessage)
        if events.count > Self.eventLimit {
            let dropped = events.count - Self.eventLimit
            events.removeFirst(dropped)
            firstEventNumber += dropped
        }
        if let report = update.routes.last {
            lastRoute = Route(
                requested: report.requested?.description, settled: report.settled?.description,
                instructions: report.instructions.map(\.description), failure: report.failure?.description,
                rolledBack: report.rolledBack.map(\.description))
        }
    }

    /// The id of the node an event shows: what it enters, inserts, moves, switches to or updates.
    private static func shownID(_ event: RouterEvent) -> NodeID? {
        guard case .instruction(let instruction) = event else { return nil }
        switch instruction {
        case .enter(let entry), .insert(let entry, _), .move(let entry, _): return entry.id
        case .switch(_, let target), .update(_, let target): return target.id
        case .leave, .remove: return nil
        }
    }

    /// The declared graph's style: the app's rules as `portolan graph` draws them, unvisited nodes
    /// dimmed, and a legend row saying so.
    private func declaredStyle(_ graph: NavigationGraph, rules: AppRulesPicture?) -> GraphStyle {
        let visited = visited
        let style = GraphStyle(
            nodeClasses: { visited.contains($0) ? ["visited"] : ["unvisited"] },
            stylesheet: ".node.unvisited { opacity: 0.4; }",
            legend: [GraphLegendItem(className: "unvisited", label: "not shown yet in this session")])
        return rules?.style(for: graph, adding: style) ?? style.showingRoutes(of: graph)
    }

    /// The state as one line of JSON, keys sorted, absent values left out.
    public var json: String {
        var fields = [
            ("activePath", Self.list(activePath)), ("app", Escaping.jsonString(app)), ("events", Self.list(events)),
            ("firstEventNumber", String(firstEventNumber)), ("graph", Escaping.jsonString(graphSVG)),
            ("sequence", String(sequence)), ("svg", Escaping.jsonString(svg)),
        ]
        if let lastRoute {
            var route = [("instructions", Self.list(lastRoute.instructions)), ("rolledBack", Self.list(lastRoute.rolledBack))]
            for (key, value) in [("failure", lastRoute.failure), ("requested", lastRoute.requested), ("settled", lastRoute.settled)] {
                if let value { route.append((key, Escaping.jsonString(value))) }
            }
            fields.append(("lastRoute", Self.object(route)))
        }
        return Self.object(fields)
    }

    private static func list(_ strings: [String]) -> String {
        "[" + strings.map(Escaping.jsonString).joined(separator: ",") + "]"
    }

    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.sorted { $0.0 < $1.0 }.map { Escaping.jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
