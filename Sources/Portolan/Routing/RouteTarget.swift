/// Where a request asks to go: a destination, or a URL, which the graph's route patterns resolve
/// after the redirect rules (what a flow's step leads to, what a script's `portolan.route` takes).
public enum RouteTarget: Sendable, Hashable {
    case destination(Destination)
    case url(String)
}
