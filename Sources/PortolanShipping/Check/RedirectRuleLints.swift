import Portolan

// Lints of the app's redirect rules: invalid ones, rules that hide a route, rules an earlier rule
// hides (the first declared rule that matches wins, URLRedirects), and rules that lead nowhere.

extension AppLinter {
    mutating func checkRedirectRules(_ routes: Routes) {
        var rules = routes
        var parsed: [(rule: RecordedRule, pattern: RoutePattern)] = []
        for rule in app.redirectRules {
            do {
                try rules.redirects.add(from: rule.from, to: rule.to)
                parsed.append((rule, try RoutePattern(rule.from)))
            } catch {
                report(.error, .invalidRoute, file: rule.file, line: rule.line, "redirect rule '\(rule.from)' is invalid: \(error)")
            }
        }
        checkShadowedRules(parsed)
        for (rule, pattern) in parsed {
            for route in routes.accepted where RouteShapes.contains(pattern, route.pattern, caseInsensitiveTarget: app.options.caseInsensitiveRoutes) {
                report(.warning, .shadowedRoute, line: line(of: route.item, field: "route"),
                       "route '\(route.pattern.text)' of \(route.item.label) never matches: the redirect rule '\(rule.from)' → '\(rule.to)' "
                       + "(line \(rule.line)) rewrites every URL it matches first")
            }
            guard let target = try? RoutePattern(rule.to), target.scheme == nil else { continue }
            let leadsSomewhere = routes.accepted.contains { RouteShapes.mayOverlap(target, $0.pattern, caseInsensitive: app.options.caseInsensitiveRoutes) }
                || parsed.contains { $0.rule.from != rule.from && RouteShapes.mayOverlap(target, $0.pattern, caseInsensitive: false) }
            if !leadsSomewhere {
                report(.error, .unknownNodeInRedirect, file: rule.file, line: rule.line,
                       "redirect rule '\(rule.from)' → '\(rule.to)' leads nowhere: no route matches '\(rule.to)'")
            }
        }
        redirectRules = rules.redirects
    }

    /// A rule an earlier one always rewrites first never applies: rules apply in declaration order.
    private mutating func checkShadowedRules(_ parsed: [(rule: RecordedRule, pattern: RoutePattern)]) {
        for (index, (rule, pattern)) in parsed.enumerated() {
            guard let earlier = parsed[..<index].first(where: {
                RouteShapes.contains($0.pattern, pattern, caseInsensitiveTarget: false)
            }) else { continue }
            report(.warning, .shadowedRedirectRule, file: rule.file, line: rule.line,
                   "redirect rule '\(rule.from)' → '\(rule.to)' never applies: the earlier rule '\(earlier.rule.from)' → "
                   + "'\(earlier.rule.to)' (line \(earlier.rule.line)) matches every URL it does, and the first declared rule wins")
        }
    }
}
