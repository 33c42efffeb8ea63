/// What holds for a whole app rather than for one node, as every drawing of its declared graph
/// shows it: its redirect rules, how its router queues routes, and the origins its URLs may come
/// from. The text formats show them as lines under the drawing; JSON as fields of their own.
public struct GraphAppRules: Sendable, Equatable {
    /// A redirect rule, in declaration order: a pattern and its template, or a function (both nil).
    public struct Redirect: Sendable, Equatable {
        public var from: String?
        public var to: String?

        public init(from: String?, to: String?) {
            self.from = from
            self.to = to
        }
    }

    public var redirects: [Redirect] = []
    /// The router's queue policy (`fifo`, `latest_wins`); nil when not given.
    public var queue: String?
    /// The root's `schemes` and `hosts`, sorted; empty when it lists none (every origin).
    public var schemes: [String] = []
    public var hosts: [String] = []

    public init() {}

    /// The rules of an app with `graph`: its origins from the graph, the rest as given.
    public init(graph: NavigationGraph, queue: QueuePolicy, redirects: [Redirect]) {
        self.redirects = redirects
        self.queue = queue.rawValue
        schemes = graph.urlRoutes.origins.schemes.sorted()
        hosts = graph.urlRoutes.origins.hosts.sorted()
    }

    /// The lines the text formats show: each redirect rule, a queue other than first in first
    /// out, and the origins.
    var lines: [String] {
        var lines = redirects.map { rule in
            guard let from = rule.from, let to = rule.to else { return "redirect (a Lua function)" }
            return "redirect \(from) → \(to)"
        }
        if let queue, queue != QueuePolicy.fifo.rawValue { lines.append("queue: \(queue)") }
        if !schemes.isEmpty { lines.append("schemes: " + schemes.joined(separator: ", ")) }
        if !hosts.isEmpty { lines.append("hosts: " + hosts.joined(separator: ", ")) }
        return lines
    }
}
