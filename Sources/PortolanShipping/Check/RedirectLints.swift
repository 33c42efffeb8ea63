import Portolan

// Lints of the literal redirects a guard or an interceptor returns (`SourceFacts.redirects`): a URL no
// route matches, an id that is not an anywhere node, a path the graph does not declare.

extension AppLinter {
    mutating func checkRedirects(_ routes: Routes) {
        for redirect in facts.redirects {
            switch redirect.destination {
            case .string(let text) where ParsedURL.isURL(text):
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

    /// As `NavigationGraph.allows`: a declared child, a node the parent pushes, or an anywhere node
    /// on top of a screen.
    private func allows(_ child: String, below parent: String) -> Bool {
        guard let parentItem = firstByID[parent], let childItem = firstByID[child] else { return false }
        if (parentItem.node.children ?? []).contains(where: { $0.id == child }) || parentItem.node.pushes.contains(child) {
            return true
        }
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
}
