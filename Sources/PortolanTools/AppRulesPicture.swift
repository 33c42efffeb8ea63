import PortolanLua
import PortolanShipping

/// What a picture of an app's declared graph shows of its rules besides the nodes: each node's
/// rules and where its guard redirects (read from the app's source, as `portolan check` reads
/// it), the app's redirect rules, queue and origins, and its flows. `portolan graph` and the
/// inspector's declared graph draw the same, from here.
public struct AppRulesPicture: Sendable {
    var nodeRules: [NodeID: [String]] = [:]
    var guardRedirects: [NodeID: [String]] = [:]
    var app = GraphAppRules()
    var flows: [String] = []

    /// What `host` has declared; `source` is the app script's text (nil when it cannot be read:
    /// guards are then drawn without their targets). Nil before the app declares a graph.
    public static func read(from host: PortolanHost, source: String?) async -> AppRulesPicture? {
        guard let graph = await host.graph else { return nil }
        return AppRulesPicture(
            nodeRules: await host.nodeRules, guardRedirects: source.map(GuardDestinations.read(source:)) ?? [:],
            app: GraphAppRules(
                graph: graph, queue: await host.router?.configuration.queuePolicy ?? .fifo, redirects: await host.redirectRules),
            flows: await host.flowLines)
    }

    /// The same for the app script at `file`, read as every loader reads one.
    public static func read(from host: PortolanHost, file: String) async -> AppRulesPicture? {
        await read(from: host, source: AppChecker.readFile(file))
    }

    /// `style` with the routes of `graph`'s nodes and these rules added.
    public func style(for graph: NavigationGraph, adding style: GraphStyle = GraphStyle()) -> GraphStyle {
        let nodeRules = nodeRules
        var style = style.showingRoutes(of: graph).showingRules(of: graph, guardRedirects: guardRedirects) { nodeRules[$0] ?? [] }
        style.notes += flows
        style.app = app
        return style
    }
}
