import Portolan

// Lints of the URL route patterns nodes declare: invalid or ambiguous patterns, routes into an anywhere
// node, and routes another always matches first.

extension AppLinter {
    /// The patterns the engine would accept, in declaration order, with their nodes.
    struct DeclaredRoute {
        var pattern: RoutePattern
        var item: Visited
    }

    struct Routes {
        var accepted: [DeclaredRoute] = []
        var builder: URLMatcherBuilder<Int>
        var redirects = URLRedirects()
        /// The accepted patterns, as the engine would match them.
        var matcher: URLMatcher<Int> { builder.build() }
    }

    mutating func checkRoutes() -> Routes {
        var routes = Routes(builder: URLMatcherBuilder(
            caseInsensitive: app.options.caseInsensitiveRoutes, significantTrailingSlash: app.options.significantTrailingSlash))
        var owners: [String: DeclaredRoute] = [:]
        for item in visited {
            let routeLine = line(of: item, field: "route")
            for text in item.node.routes {
                let pattern: RoutePattern
                do {
                    pattern = try RoutePattern(text, options: item.node.routeOptions)
                } catch {
                    report(.error, .invalidRoute, line: routeLine, "route '\(text)' of \(item.label) is invalid: \(error)")
                    continue
                }
                do {
                    try routes.builder.insert(pattern, value: routes.accepted.count)
                } catch .ambiguous(let existing, _, let reason) {
                    let other = owners[existing].map { "route '\(existing)' of \($0.item.label) (line \(line(of: $0.item, field: "route")))" }
                        ?? "route '\(existing)'"
                    report(.error, .ambiguousRoute, line: routeLine,
                           "route '\(text)' of \(item.label) is ambiguous with \(other): \(reason)")
                    continue
                } catch {
                    report(.error, .invalidRoute, line: routeLine, "route '\(text)' of \(item.label) is invalid: \(error)")
                    continue
                }
                let declared = DeclaredRoute(pattern: pattern, item: item)
                if owners[text] == nil { owners[text] = declared }
                routes.accepted.append(declared)
                if let anywhere = item.anywhereAncestor, item.node.id != anywhere, !anywhere.isEmpty {
                    report(.warning, .deadRoute, line: routeLine,
                           "route '\(text)' of \(item.label) leads nowhere: \(item.label) is inside the anywhere node '\(anywhere)', "
                           + "and a URL cannot say where '\(anywhere)' was shown; give '\(anywhere)' the route, or route there first")
                }
            }
        }
        for route in routes.accepted {
            for other in routes.accepted where other.item.node.id != route.item.node.id {
                guard RouteShapes.alwaysBeats(other.pattern, route.pattern, caseInsensitive: app.options.caseInsensitiveRoutes) else { continue }
                report(.warning, .shadowedRoute, line: line(of: route.item, field: "route"),
                       "route '\(route.pattern.text)' of \(route.item.label) never matches: route '\(other.pattern.text)' of "
                       + "\(other.item.label) (line \(line(of: other.item, field: "route"))) matches every URL it does and is tried first")
                break
            }
        }
        return routes
    }
}
