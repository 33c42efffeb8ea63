import Portolan
import PortolanLua

// A guard that can redirect to its own node or below it: a guard runs for every route to its node
// or below, so that redirect meets the same guard, which (deciding as before: decisions must only
// decide) redirects again to where the route now goes, and a redirect to where a route already
// goes lets it through (go_router's rule): the guard sends the user into what it guards. Read
// from the literal redirects written inside a guard's function, on any branch, not only one it
// always takes; a redirect to a node the guard tests with `goes_to` is left alone (`if not
// request:goes_to("home") then return portolan.redirect { …, "home" } end` lets the second
// route through).

extension AppLinter {
    mutating func checkGuardRedirectsIntoThemselves(_ routes: Routes) {
        for redirect in facts.redirects {
            guard let nodeLine = redirect.guardNodeLine, let target = redirectTarget(redirect.destination, routes: routes),
                !redirect.guardTests.contains(target)
            else { continue }
            for item in visited where item.node.line == nodeLine && item.node.fields[HandlerName.guard.rawValue] == "function" {
                guard let id = item.node.id, let place = standing(of: target, within: id) else { continue }
                report(.warning, .redirectIntoGuard, line: redirect.line,
                       "the guard of '\(id)' can redirect to \(place): that route meets the same guard, whose redirect "
                       + "to where the route already goes lets it through, past the guard's check; redirect outside '\(id)'")
            }
        }
    }

    /// The id of the node a literal redirect leads to, when the source says.
    private func redirectTarget(_ destination: SourceFacts.Literal, routes: Routes) -> String? {
        switch destination {
        case .string(let text) where ParsedURL.isURL(text):
            guard let rewritten = try? redirectRules.apply(to: text, limit: 8),
                let match = try? routes.matcher.match(rewritten), routes.accepted.indices.contains(match.value)
            else { return nil }
            return routes.accepted[match.value].item.node.id
        case .string(let id):
            return id
        case .table(_, let named) where named["id"] != nil:
            if case .string(let id)? = named["id"] { return id }
            return nil
        case .table(let positional, _):
            if case .string(let id)? = positional.last { return id }
            return nil
        case .other, .dynamic:
            return nil
        }
    }

    /// `'account' itself` or `'orders', below it` when `target` is `id` or declared beneath it; nil otherwise.
    private func standing(of target: String, within id: String) -> String? {
        if target == id { return "'\(id)' itself" }
        var current = firstByID[target]?.parent
        var steps = 0
        while let parent = current, steps <= visited.count {
            if parent == id { return "'\(target)', below it" }
            current = firstByID[parent]?.parent
            steps += 1
        }
        return nil
    }
}
