import Portolan
import PortolanLua

/// The lints themselves: everything `portolan check` can decide from what an app declared (the
/// recorded node tables and redirect rules) and from its source (literal redirects, `goes_to`
/// tests, guards and interceptors that always turn routes away). Each finding is reported; none
/// stops the others.
struct AppLinter {
    let app: RecordedApp
    let facts: SourceFacts
    let file: String
    private(set) var findings: [CheckFinding] = []

    static let handlerNames = ["enter", "leave", "switch", "can_leave", "guard"]
    /// Fields a node table may have besides handlers (the root also has `anywhere` and
    /// `case_insensitive_routes`).
    static let structuralFields: Set<String> = ["id", "kind", "active", "children", "route", "anywhere", "case_insensitive_routes"]

    /// The first node declared with each id.
    private var firstByID: [String: Visited] = [:]
    private var visited: [Visited] = []

    /// A node table and where it stands in the declared tree.
    struct Visited {
        var node: RecordedNode
        /// How messages name it: `'movie'`, or `child 2 of 'tabs'` when it has no id.
        var label: String
        var parent: String?
        /// The anywhere node it is declared under (itself for an anywhere node).
        var anywhereAncestor: String?
        var line: Int
    }

    init(app: RecordedApp, facts: SourceFacts, file: String) {
        self.app = app
        self.facts = facts
        self.file = file
    }

    mutating func run() -> [CheckFinding] {
        collect(app.root, label: "the root", parent: nil, anywhere: nil)
        if let type = app.anywhereType {
            report(.error, .invalidNode, line: visited.first.map { line(of: $0, field: "anywhere") } ?? app.appLine, "anywhere must be a list of node tables, not a \(type)")
        }
        for (index, node) in app.anywhere.enumerated() {
            collect(node, label: "anywhere node \(index + 1)", parent: nil, anywhere: node.id ?? "")
        }
        for item in visited {
            checkStructure(item)
            checkHandlers(item)
        }
        checkDuplicates()
        checkActive()
        let routes = checkRoutes()
        checkRedirectRules(routes)
        checkRedirects(routes)
        checkGoesTo()
        checkTurnAways()
        if let reason = app.declarationError, !findings.contains(where: { $0.severity == .error }) {
            // The engine refused something no lint above recognised: say so rather than pass.
            report(.error, .loadError, line: app.appLine, "portolan.app refused the graph: \(reason)")
        }
        return findings
    }

    // MARK: Walking the tree

    private mutating func collect(_ node: RecordedNode, label: String, parent: String?, anywhere: String?) {
        let name = node.id.flatMap { $0.isEmpty ? nil : "'\($0)'" } ?? label
        visited.append(Visited(node: node, label: name, parent: parent, anywhereAncestor: anywhere, line: line(of: node)))
        if let id = node.id, firstByID[id] == nil { firstByID[id] = visited.last }
        for (index, child) in (node.children ?? []).enumerated() {
            collect(child, label: "child \(index + 1) of \(name)", parent: node.id, anywhere: anywhere)
        }
    }

    private func line(of node: RecordedNode) -> Int {
        node.line ?? app.appLine
    }

    /// The line of one field of a node's table when the source shows it, else the node's line.
    private func line(of item: Visited, field: String) -> Int {
        item.node.line.flatMap { facts.fieldLines[$0]?[field] } ?? item.line
    }

    private mutating func report(_ severity: CheckFinding.Severity, _ code: CheckFinding.Code, line: Int, _ message: String) {
        findings.append(CheckFinding(severity, code, file: file, line: line, message))
    }

    private var declaredIDs: [String] {
        visited.compactMap(\.node.id)
    }

    // MARK: Node tables

    private mutating func checkStructure(_ item: Visited) {
        let node = item.node, line = item.line
        guard node.typeName == "table" else {
            report(.error, .invalidNode, line: line, "\(item.label) must be a node table, not a \(node.typeName)")
            return
        }
        if node.isCycle {
            report(.error, .invalidNode, line: line, "the node table of \(item.label) contains itself")
            return
        }
        if node.id == nil {
            let type = node.fields["id"]
            report(.error, .invalidNode, line: line,
                   type.map { "\(item.label) has an id that is a \($0); an id is a non-empty string" } ?? "\(item.label) has no id")
        } else if node.id == "" {
            report(.error, .invalidNode, line: line, "\(item.label) has an empty id; an id is a non-empty string")
        }
        if let kind = node.kind, kind != "screen", kind != "switch" {
            report(.error, .invalidNode, line: self.line(of: item, field: "kind"), "\(item.label): kind must be \"screen\" or \"switch\", not '\(kind)'")
        }
        if let type = node.fields["active"], type != "string" {
            report(.error, .invalidNode, line: self.line(of: item, field: "active"), "\(item.label): active must be a child's id, not a \(type)")
        }
        if let type = node.fields["children"], type != "table" {
            report(.error, .invalidNode, line: self.line(of: item, field: "children"), "\(item.label): children must be a list of node tables, not a \(type)")
        }
        if let type = node.fields["route"], type != "string", type != "table" {
            report(.error, .invalidRoute, line: self.line(of: item, field: "route"), "\(item.label): route must be a URL pattern or a list of them, not a \(type)")
        } else if let type = node.badRouteType {
            report(.error, .invalidRoute, line: self.line(of: item, field: "route"), "\(item.label): route lists a \(type); each route is a URL pattern string")
        }
        if node.isSwitch {
            if (node.children ?? []).isEmpty {
                report(.error, .invalidNode, line: line, "switch node \(item.label) has no children; a switch needs one to be active")
            }
        } else if node.active != nil, node.kind == nil || node.kind == "screen" {
            report(.error, .activeNotChild, line: self.line(of: item, field: "active"),
                   "\(item.label) names '\(node.active ?? "")' as active but is not a switch node; only a switch node (kind = \"switch\") has an active child")
        }
    }

    private mutating func checkHandlers(_ item: Visited) {
        let node = item.node
        guard node.typeName == "table" else { return }
        for handler in Self.handlerNames {
            if let type = node.fields[handler], type != "function" {
                report(.error, .handlerNotFunction, line: line(of: item, field: handler), "the \(handler) handler of \(item.label) is a \(type), not a function")
            }
        }
        if node.fields["switch"] == "function", !node.isSwitch {
            report(.warning, .unknownHandler, line: line(of: item, field: "switch"),
                   "\(item.label) has a switch handler but is not a switch node: it is never called")
        }
        for (field, type) in node.fields.sorted(by: { $0.key < $1.key }) where type == "function" {
            guard !Self.handlerNames.contains(field), !Self.structuralFields.contains(field),
                let meant = Self.handlerLookalike(field)
            else { continue }
            report(.warning, .unknownHandler, line: line(of: item, field: field),
                   "\(item.label) has a function '\(field)', which Portolan never calls; did you mean '\(meant)'?")
        }
    }

    /// The handler a field name looks like a misspelling of (`on_enter`, `canLeave`, `eneter`).
    static func handlerLookalike(_ field: String) -> String? {
        func normal(_ text: String) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }
        let name = normal(field)
        if let exact = handlerNames.first(where: { normal($0) == name }) { return exact }
        let contained = handlerNames.filter { name.contains(normal($0)) }.max { $0.count < $1.count }
        if let contained { return contained }
        guard name.count >= 4 else { return nil }
        return handlerNames.map { ($0, editDistance(name, normal($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    private mutating func checkDuplicates() {
        var seen: [String: Visited] = [:]
        for item in visited {
            guard let id = item.node.id, !id.isEmpty, !item.node.isCycle else { continue }
            if let first = seen[id] {
                let place = first.line == item.line ? "by the same table, at line \(first.line)" : "at line \(first.line)"
                report(.error, .duplicateID, line: item.line, "duplicate id '\(id)' (first declared \(place))")
            } else {
                seen[id] = item
            }
        }
    }

    private mutating func checkActive() {
        for item in visited where item.node.isSwitch {
            guard let active = item.node.active else { continue }
            let children = (item.node.children ?? []).compactMap(\.id)
            guard !children.contains(active) else { continue }
            let childList = children.isEmpty ? "it has none" : "its children are " + children.map { "'\($0)'" }.joined(separator: ", ")
            let elsewhere: String
            if let other = firstByID[active] {
                elsewhere = other.parent.map { "'\(active)' is a child of '\($0)'" }
                    ?? (other.anywhereAncestor != nil ? "'\(active)' is an anywhere node" : "'\(active)' is the root")
            } else {
                elsewhere = "no node '\(active)' is declared" + suggestion(for: active)
            }
            report(.error, .activeNotChild, line: line(of: item, field: "active"),
                   "switch node \(item.label) names '\(active)' as active, which is not one of its children: \(elsewhere); \(childList)")
        }
    }

    // MARK: Routes

    /// The patterns the engine would accept, in declaration order, with their nodes.
    struct DeclaredRoute {
        var pattern: RoutePattern
        var item: Visited
    }

    struct Routes {
        var accepted: [DeclaredRoute] = []
        var matcher: URLMatcher<Int>
        var redirects = URLRedirects()
    }

    private mutating func checkRoutes() -> Routes {
        var routes = Routes(matcher: URLMatcher(caseInsensitive: app.caseInsensitiveRoutes))
        var owners: [String: DeclaredRoute] = [:]
        for item in visited {
            let routeLine = line(of: item, field: "route")
            for text in item.node.routes {
                let pattern: RoutePattern
                do {
                    pattern = try RoutePattern(text)
                } catch {
                    report(.error, .invalidRoute, line: routeLine, "route '\(text)' of \(item.label) is invalid: \(error)")
                    continue
                }
                do {
                    try routes.matcher.insert(pattern, value: routes.accepted.count)
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
                guard RouteShapes.alwaysBeats(other.pattern, route.pattern, caseInsensitive: app.caseInsensitiveRoutes) else { continue }
                report(.warning, .shadowedRoute, line: line(of: route.item, field: "route"),
                       "route '\(route.pattern.text)' of \(route.item.label) never matches: route '\(other.pattern.text)' of "
                       + "\(other.item.label) (line \(line(of: other.item, field: "route"))) matches every URL it does and is tried first")
                break
            }
        }
        return routes
    }

    private mutating func checkRedirectRules(_ routes: Routes) {
        var rules = routes
        var parsed: [(rule: RecordedRule, pattern: RoutePattern)] = []
        for rule in app.redirectRules {
            let ruleFile = rule.file ?? file
            do {
                try rules.redirects.add(from: rule.from, to: rule.to)
                parsed.append((rule, try RoutePattern(rule.from)))
            } catch {
                findings.append(CheckFinding(.error, .invalidRoute, file: ruleFile, line: rule.line,
                                             "redirect rule '\(rule.from)' is invalid: \(error)"))
            }
        }
        for (rule, pattern) in parsed {
            for route in routes.accepted where RouteShapes.contains(pattern, route.pattern, caseInsensitiveTarget: app.caseInsensitiveRoutes) {
                report(.warning, .shadowedRoute, line: line(of: route.item, field: "route"),
                       "route '\(route.pattern.text)' of \(route.item.label) never matches: the redirect rule '\(rule.from)' → '\(rule.to)' "
                       + "(line \(rule.line)) rewrites every URL it matches first")
            }
            guard let target = try? RoutePattern(rule.to), target.scheme == nil else { continue }
            let leadsSomewhere = routes.accepted.contains { RouteShapes.mayOverlap(target, $0.pattern, caseInsensitive: app.caseInsensitiveRoutes) }
                || parsed.contains { $0.rule.from != rule.from && RouteShapes.mayOverlap(target, $0.pattern, caseInsensitive: false) }
            if !leadsSomewhere {
                findings.append(CheckFinding(.error, .unknownNodeInRedirect, file: rule.file ?? file, line: rule.line,
                                             "redirect rule '\(rule.from)' → '\(rule.to)' leads nowhere: no route matches '\(rule.to)'"))
            }
        }
        redirectRules = rules.redirects
    }

    private var redirectRules = URLRedirects()

    // MARK: Redirects, guards, interceptors

    private mutating func checkRedirects(_ routes: Routes) {
        for redirect in facts.redirects {
            switch redirect.destination {
            case .string(let text) where text.hasPrefix("/") || text.contains("://"):
                checkRedirect(url: text, line: redirect.line, routes: routes)
            case .string(let id):
                checkRedirect(anywhere: id, line: redirect.line)
            case .table(_, let named) where named["id"] != nil:
                if case .string(let id)? = named["id"] { checkRedirect(anywhere: id, line: redirect.line) }
            case .table(let positional, _):
                checkRedirect(path: positional.map(Self.literalID), line: redirect.line)
            case .other, .dynamic:
                continue
            }
        }
    }

    private static func literalID(_ literal: SourceFacts.Literal) -> String? {
        switch literal {
        case .string(let id): return id
        case .table(_, let named):
            if case .string(let id)? = named["id"] { return id }
            return nil
        default: return nil
        }
    }

    private mutating func checkRedirect(url: String, line: Int, routes: Routes) {
        let rewritten: String
        do {
            rewritten = try redirectRules.apply(to: url, limit: 8)
        } catch {
            report(.error, .invalidRedirect, line: line, "redirect to '\(url)': \(error.message)")
            return
        }
        let match: URLMatch<Int>?
        do {
            match = try routes.matcher.match(rewritten)
        } catch {
            report(.error, .invalidRedirect, line: line, "redirect to '\(url)': the URL is malformed: \(error)")
            return
        }
        guard let match else {
            let via = rewritten == url ? "" : " (rewritten to '\(rewritten)')"
            if app.functionRuleCount > 0 {
                report(.warning, .unknownNodeInRedirect, line: line,
                       "redirect to '\(url)'\(via) leads nowhere unless a redirect rule function rewrites it: no route matches it")
            } else {
                report(.error, .unknownNodeInRedirect, line: line, "redirect to '\(url)'\(via) leads nowhere: no route matches it")
            }
            return
        }
        let target = routes.accepted[match.value].item
        if let anywhere = target.anywhereAncestor, target.node.id != anywhere {
            report(.error, .invalidRedirect, line: line,
                   "redirect to '\(url)' leads to \(target.label), inside the anywhere node '\(anywhere)': such a URL cannot be routed")
        }
    }

    private mutating func checkRedirect(anywhere id: String, line: Int) {
        guard let item = firstByID[id] else {
            report(.error, .unknownNodeInRedirect, line: line, "redirect to '\(id)': no node '\(id)' is declared\(suggestion(for: id))")
            return
        }
        guard item.anywhereAncestor == id else {
            report(.error, .invalidRedirect, line: line,
                   "redirect to '\(id)': a single id must name an anywhere node, and '\(id)' is not one; redirect to its path, "
                   + pathLiteral(of: id))
            return
        }
    }

    private mutating func checkRedirect(path ids: [String?], line: Int) {
        guard !ids.isEmpty else {
            report(.error, .invalidRedirect, line: line, "redirect to an empty destination")
            return
        }
        var complete = true
        for id in ids {
            guard let id else {
                complete = false
                continue
            }
            if firstByID[id] == nil {
                report(.error, .unknownNodeInRedirect, line: line, "redirect names '\(id)': no node '\(id)' is declared\(suggestion(for: id))")
                complete = false
            }
        }
        guard complete else { return }
        let path = ids.compactMap { $0 }
        if let first = path.first, first != app.root.id {
            report(.error, .invalidRedirect, line: line,
                   "redirect to a path that starts at '\(first)', not at the root '\(app.root.id ?? "?")'; try " + pathLiteral(of: path.last ?? first))
            return
        }
        for (parent, child) in zip(path, path.dropFirst()) where !allows(child, below: parent) {
            report(.error, .invalidRedirect, line: line,
                   "redirect to a path where '\(child)' follows '\(parent)', which does not declare it; try " + pathLiteral(of: path.last ?? child))
            return
        }
    }

    /// As `NavigationGraph.allows`: a declared child, or an anywhere node on top of a screen.
    private func allows(_ child: String, below parent: String) -> Bool {
        guard let parentItem = firstByID[parent], let childItem = firstByID[child] else { return false }
        if (parentItem.node.children ?? []).contains(where: { $0.id == child }) { return true }
        return childItem.anywhereAncestor == child && !parentItem.node.isSwitch
    }

    /// `{ "root", "onboarding", "login" }` for `login`.
    private func pathLiteral(of id: String) -> String {
        var lineage: [String] = []
        var current: String? = id
        while let node = current, let item = firstByID[node], lineage.count <= visited.count {
            lineage.append(node)
            current = item.parent
        }
        return "{ " + lineage.reversed().map { "\"\($0)\"" }.joined(separator: ", ") + " }"
    }

    private mutating func checkGoesTo() {
        for test in facts.goesTo where firstByID[test.id] == nil {
            report(.error, .unknownNodeInGuard, line: test.line,
                   "goes_to('\(test.id)') names a node that is not declared, so it is always false\(suggestion(for: test.id))")
        }
    }

    /// Nodes a guard or an interceptor always turns away, unless the app starts on them.
    private mutating func checkTurnAways() {
        let initial = initialActivePath()
        for turnAway in facts.guardTurnAways {
            for item in visited where item.node.line == turnAway.nodeLine && item.node.fields["guard"] == "function" {
                guard let id = item.node.id, !initial.contains(id) else { continue }
                report(.warning, .unreachableNode, line: item.line,
                       "no route can reach '\(id)'\(below(item)): its guard (line \(turnAway.line)) always does \(turnAway.action)")
            }
        }
        for turnAway in facts.interceptTurnAways {
            guard let item = firstByID[turnAway.id], !initial.contains(turnAway.id) else { continue }
            report(.warning, .unreachableNode, line: item.line,
                   "no route can reach '\(turnAway.id)'\(below(item)): an interceptor (line \(turnAway.line)) does \(turnAway.action) "
                   + "for every route that goes to it")
        }
    }

    /// `, nor the nodes below it (a, b)` when it has any.
    private func below(_ item: Visited) -> String {
        var ids: [String] = []
        func visit(_ node: RecordedNode) {
            for child in node.children ?? [] {
                if let id = child.id { ids.append(id) }
                visit(child)
            }
        }
        visit(item.node)
        guard !ids.isEmpty else { return "" }
        return " or the nodes below it (" + ids.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }

    /// The root and the active children of switch nodes from it, as the app starts.
    private func initialActivePath() -> Set<String> {
        var path: Set<String> = []
        var current: RecordedNode? = app.root
        while let node = current, let id = node.id, path.insert(id).inserted {
            guard node.isSwitch, let children = node.children, !children.isEmpty else { break }
            current = children.first { $0.id == node.active } ?? (node.active == nil ? children.first : nil)
        }
        return path
    }

    private func suggestion(for id: String) -> String {
        let close = declaredIDs.map { ($0, Self.editDistance($0, id)) }.filter { $0.1 <= 2 && $0.1 < max(2, id.count / 2 + 1) }
        guard let best = close.min(by: { $0.1 < $1.1 }) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
