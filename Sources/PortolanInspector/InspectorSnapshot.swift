import Portolan
import PortolanTools

/// What the inspector's page shows, as the page receives it (JSON): the live tree drawn as SVG,
/// the active path, the event log and the last route. Each REPL update is folded in.
struct InspectorSnapshot: Encodable, Sendable {
    /// The last route's destination, what it ran and how it ended.
    struct Route: Encodable, Sendable {
        var requested: String?
        var settled: String?
        var instructions: [String]
        var failure: String?
        var rolledBack: [String]
    }

    /// Events the page keeps, newest last: a line that routes in a loop must not make every
    /// client receive thousands.
    static let eventLimit = 300

    /// Counts updates, so a page (or a test) can tell a new state from the one it has.
    var sequence = 0
    var app = ""
    /// The live tree as inline SVG, the active path highlighted; empty while no app is declared.
    var svg = ""
    var activePath: [String] = []
    /// The newest events in their canonical text (`RouterEvent.description`).
    var events: [String] = []
    /// The number, from 1, of the first event in `events`: older ones were dropped.
    var firstEventNumber = 1
    var lastRoute: Route?

    mutating func apply(_ update: ReplUpdate) {
        sequence += 1
        app = update.appName
        if let tree = update.tree {
            svg = GraphRenderer.inlineSVG(GraphRenderer.render(tree, as: .svg))
            activePath = tree.activePath.map(\.description)
        } else {
            svg = ""
            activePath = []
        }
        events += update.events.map(\.description)
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
}
